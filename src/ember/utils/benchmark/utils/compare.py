"""`Compare`: many Measurements as tables, one per label. Rows are sub_labels (or statements),
grouped by thread count (a "N threads: ----" line opens each group) and env; columns are
descriptions; each cell is a median in the table's unit (the one that suits the smallest
median). Replicates of a task are pooled first (Measurement.merge)."""
import collections
import enum
import math

from . import common

__all__ = ["Colorize", "Compare"]

# ANSI colours of colorize(): best, within 10% of it, 2x and 5x slower
BEST = "\033[92m"
GOOD = "\033[34m"
BAD = "\033[2m\033[91m"
VERY_BAD = "\033[31m"
BOLD = "\033[1m"
TERMINATE = "\033[0m"


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _leading_digits(value):
    return int(math.ceil(common._log10_f32(value)))


class _Column:
    """The number format of one column: enough integer digits for its largest median, and
    (when trimming) as many decimals as its least precise measurement supports."""

    def __init__(self, groups, scale, trim, highlight):
        self.groups = groups
        cells = [m for group in groups for m in group]
        self.trim = trim
        self.highlight = highlight and any(m.has_warnings for m in cells if m)
        digits = [(_leading_digits(m.median / scale), m) for m in cells if m]
        whole = max(d for d, _ in digits)
        decimals = min(max(m.significant_figures - d, 0) for d, m in digits) if trim else 1
        width = whole + decimals + (1 if decimals else 0)
        self.template = f"{{:>{width}.{decimals}f}}{{:>{7 if self.highlight else 0}}}"

    def cell(self, value, figures, spread):
        if value is None:
            return " " * len(self.cell(1, figures, None))
        if self.trim:
            value = common.trim_sigfig(value, figures)
        note = f" (! {spread * 100:.0f}%)" if self.highlight and spread is not None else ""
        return self.template.format(value, note)


class _Row:
    def __init__(self, results, group, show_env, env_width, scale, colorize, threads):
        self.results, self.group = results, group
        self.show_env, self.env_width = show_env, env_width
        self.scale, self.colorize, self.threads = scale, colorize, threads
        self.columns = ()

    def strings(self):
        first = next(m for m in self.results if m is not None)
        env = (f"({first.env})" if self.show_env else "").ljust(self.env_width + 4)
        out = ["  " + env + first.as_row_name]
        for m, column in zip(self.results, self.columns):
            if m is None:
                out.append(column.cell(None, 1, None))
            else:
                out.append(column.cell(m.median / self.scale, m.significant_figures,
                                       m.iqr / m.median if m.has_warnings else None))
        return out

    def separator(self, width):
        return [] if self.threads is None else [f"{self.threads} threads: ".ljust(width, "-")]

    def finish(self, strings, widths):
        if self.colorize is Colorize.ROWWISE:
            best = [min(m.median for m in self.results if m is not None)] * len(strings)
        elif self.colorize is Colorize.COLUMNWISE:
            best = [min((m.median for m in c.groups[self.group] if m is not None), default=None)
                    for c in self.columns]
        else:
            best = [-1] * len(strings)
        out = [strings[0].ljust(widths[0])]
        for text, width, m, b in zip(strings[1:], widths[1:], self.results, best):
            text = text.center(width)
            if self.colorize is not Colorize.NONE and m is not None and b is not None:
                text = _colour(text, m.median, b)
            out.append(text)
        return out


def _colour(text, value, best):
    if value <= best * 1.01 or value <= best + 100e-9:
        return BEST + BOLD + text + TERMINATE * 2
    if value <= best * 1.1:
        return GOOD + BOLD + text + TERMINATE * 2
    if value >= best * 5:
        return VERY_BAD + BOLD + text + TERMINATE * 2
    if value >= best * 2:
        return BAD + text + TERMINATE * 2
    return text


def _table(results, colorize, trim, highlight):
    """One label's table, as text."""
    label = results[0].label
    unit, scale = common.select_unit(min(m.median for m in results))
    row_keys = common.ordered_unique((m.num_threads, m.env, m.as_row_name) for m in results)
    row_keys.sort(key=lambda key: key[:2])          # by threads and env; stmt order kept
    col_keys = common.ordered_unique(m.description for m in results)
    grid = [[None] * len(col_keys) for _ in row_keys]
    rows_at = {key: i for i, key in enumerate(row_keys)}
    cols_at = {key: j for j, key in enumerate(col_keys)}
    for m in results:
        grid[rows_at[(m.num_threads, m.env, m.as_row_name)]][cols_at[m.description]] = m
    envs = {m.env for m in results}
    show_env = len(envs) > 1
    env_width = max(len(e) for e in envs) if show_env else 0
    rows, groups = [], []
    prior_threads, prior_env = -1, ""
    for (threads, env, _), cells in zip(row_keys, grid):
        new_group = threads != prior_threads
        if new_group:
            prior_threads, prior_env = threads, ""
            groups.append([])
        rows.append(_Row(cells, len(groups) - 1, show_env and env != prior_env, env_width,
                         scale, colorize, threads if new_group else None))
        groups[-1].append(cells)
        prior_env = env
    columns = tuple(_Column([tuple(cells[j] for cells in g) for g in groups], scale, trim,
                            highlight) for j in range(len(col_keys)))
    for row in rows:
        row.columns = columns
    strings = [[""] + col_keys] + [row.strings() for row in rows]
    count = max(len(s) for s in strings)
    for s in strings:
        s.extend([""] * (count - len(s)))
    widths = [max(len(text) for text in column) for column in zip(*strings)]
    lines = ["  |  ".join(text.center(w) for text, w in zip(strings[0], widths))]
    width = len(lines[0])
    for s, row in zip(strings[1:], rows):
        lines += row.separator(width)
        lines.append("  |  ".join(row.finish(s, widths)))
    title = f" {label or ''} ".center(width - 2, "-")
    note = ("(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n"
            if highlight and any(m.has_warnings for m in results) else "")
    return (f"[{title}]\n" + "\n".join(lines) +
            f"\n\nTimes are in {common.unit_to_english(unit)}s ({unit}).\n{note}")


class Compare:
    """Tables of `results` (Measurements): print(compare) or compare.print()."""

    def __init__(self, results):
        self._results = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self):
        return "\n".join(self._render())

    def extend_results(self, results):
        """Add more Measurements."""
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} "
                                 f"instead.")
        self._results.extend(results)

    def trim_significant_figures(self):
        """Show only the digits each measurement's spread supports."""
        self._trim_significant_figures = True

    def colorize(self, rowwise=False):
        """Colour each cell by how it compares with the best of its column (or row)."""
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self):
        """Mark cells whose measurement has a large spread with '(! XX%)'."""
        self._highlight_warnings = True

    def print(self):
        print(str(self))

    def _render(self):
        by_label = collections.defaultdict(list)
        for m in common.Measurement.merge(self._results):
            by_label[m.label].append(m)
        return [_table(group, self._colorize, self._trim_significant_figures,
                       self._highlight_warnings) for group in by_label.values()]
