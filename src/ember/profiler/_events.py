"""Profiler events and their summary table, in torch.profiler's column format."""

__all__ = ["FunctionEvent", "FunctionEventAvg", "EventList"]


def format_time(us):
    """torch's time cells: 3 decimals in s, ms or us."""
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


class _Unmeasured:
    """What ember does not measure, zero as torch reports it on a CPU without those features:
    device times and memory, memory (ember tracks no allocations), flops, stacks."""
    device_time_total = self_device_time_total = 0
    device_memory_usage = self_device_memory_usage = 0
    cpu_memory_usage = self_cpu_memory_usage = 0
    flops = 0
    stack = ()
    is_async = is_legacy = is_remote = False
    node_id = -1
    overload_name = ""

    @property
    def device_time(self):
        return 0.0

    @property
    def cuda_time(self):
        import warnings
        warnings.warn("`cuda_time` is deprecated, please use `device_time` instead.",
                      FutureWarning, stacklevel=2)
        return self.device_time


class FunctionEvent(_Unmeasured):
    """One timed call: an op, a backward node or a `record_function` range (times in us)."""

    def __init__(self, name, start_us, input_shapes=None, thread=0):
        self.name = name
        self.key = name
        self.start_us = start_us
        self.end_us = start_us
        self.children_us = 0.0
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.thread = thread
        self.count = 1

    @property
    def cpu_time_total(self):
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - self.children_us

    @property
    def cpu_time(self):
        return self.cpu_time_total

    def __repr__(self):
        return (f"<FunctionEvent name={self.name} cpu_time={format_time(self.cpu_time_total)} "
                f"self_cpu_time={format_time(self.self_cpu_time_total)} "
                f"input_shapes={self.input_shapes}>")


class FunctionEventAvg(_Unmeasured):
    """The events of one name (and input shapes, if grouped so) added up."""

    def __init__(self, key, input_shapes):
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0

    def add(self, event):
        self.count += 1
        self.cpu_time_total += event.cpu_time_total
        self.self_cpu_time_total += event.self_cpu_time_total
        return self

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return (f"<FunctionEventAvg key={self.key} "
                f"self_cpu_time={format_time(self.self_cpu_time_total)} "
                f"cpu_time={format_time(self.cpu_time)} input_shapes={self.input_shapes}>")


class EventList(list):
    """A list of events (what `profile.events()` and `key_averages()` return)."""

    def __init__(self, *args, show_shapes=False):
        super().__init__(*args)
        self._show_shapes = show_shapes

    def key_averages(self, group_by_input_shape=False):
        groups = {}
        for event in self:
            shapes = str(event.input_shapes) if group_by_input_shape else ""
            key = (event.key, shapes)
            if key not in groups:
                groups[key] = FunctionEventAvg(event.key, event.input_shapes
                                               if group_by_input_shape else None)
            groups[key].add(event)
        return EventList(groups.values(), show_shapes=group_by_input_shape)

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75,
              max_name_column_width=55, max_shapes_column_width=80, header=None,
              top_level_events_only=False):
        """The summary table: one row per entry, sorted by a column such as
        "cpu_time_total" or "self_cpu_time_total" (largest first)."""
        return build_table(self, sort_by, row_limit, max_name_column_width,
                           max_shapes_column_width, header)

    def __str__(self):
        return self.table()


def build_table(events, sort_by, row_limit, max_name_width, max_shapes_width, header):
    if not events:
        return ""
    events = list(events)
    # NOTE: percentages are of the whole profile's self time, as torch's are.
    total = sum(e.self_cpu_time_total for e in events)
    if sort_by is not None:
        # (torch's older names: "self_cuda_time_total" sorts by self_device_time_total)
        attribute = sort_by.replace("cuda", "device").replace("xpu", "device")
        events.sort(key=lambda e: getattr(e, attribute), reverse=True)
    # NOTE: column widths come from every entry, before row_limit, as in torch.
    name_width = max(len(e.key) for e in events) + 4
    if max_name_width is not None:
        name_width = min(name_width, max_name_width)
    shapes_width = min(max(len(str(e.input_shapes)) for e in events) + 4, max_shapes_width)
    if row_limit is not None and row_limit > 0:
        events = events[:row_limit]
    columns = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg",
               "# of Calls"]
    show_shapes = isinstance(events[0], FunctionEventAvg) and events[0].input_shapes is not None
    widths = [name_width] + [12] * len(columns) + ([shapes_width] if show_shapes else [])
    titles = ["Name"] + columns + (["Input Shapes"] if show_shapes else [])
    rule = "".join("-" * w + "  " for w in widths)
    head = "".join(f"{t:>{w}}  " for t, w in zip(titles, widths))
    lines = [rule, head, rule] if header is None else [header, rule, head, rule]
    for e in events:
        name = e.key
        if len(name) >= name_width - 3:
            name = name[:name_width - 3 - 3] + "..."
        cells = [name,
                 _percent(e.self_cpu_time_total, total), format_time(e.self_cpu_time_total),
                 _percent(e.cpu_time_total, total), format_time(e.cpu_time_total),
                 format_time(e.cpu_time_total / max(e.count, 1)), str(e.count)]
        if show_shapes:
            text = str(e.input_shapes)
            cells.append(text if len(text) < shapes_width - 3 else
                         text[:shapes_width - 6] + "...")
        lines.append("".join(f"{c:>{w}}  " for c, w in zip(cells, widths)))
    lines.append(rule)
    lines.append(f"Self CPU time total: {format_time(total)}")
    return "\n".join(lines) + "\n"


def _percent(part, total):
    return f"{100.0 * part / total:.2f}%" if total else "0.00%"
