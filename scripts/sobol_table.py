"""Write src/ember/_sobol_table.py: the initial direction numbers of Joe and Kuo's Sobol'
table ("new-joe-kuo-6.21201", https://web.maths.unsw.edu.au/~fkuo/sobol/), which torch's
SobolEngine uses, for the first DIMS dimensions.

Usage: python scripts/sobol_table.py TABLE
where TABLE is the published text file (a header line, then one line per dimension from the
second: "d s a m_1 ... m_s"), or a NumPy .npz holding the same numbers as arrays `poly`
(the polynomials) and `vinit` (the m values, zero-padded), such as SciPy ships. Only the m
values are written: ember generates the primitive polynomials itself (they are the table's,
in increasing order), and the script checks that they agree with the table's.
"""
import base64
import sys
import zlib
from pathlib import Path

import numpy as np

DIMS = 1111     # (torch's limit before it took the 21201-dimension table)


def read_table(path):
    """(polynomial, [m_1, ..., m_s]) per dimension from the second on."""
    if path.endswith(".npz"):
        z = np.load(path)
        rows = []
        for poly, vinit in zip(z["poly"][1:], z["vinit"][1:]):
            s = int(poly).bit_length() - 1
            rows.append((int(poly), [int(v) for v in vinit[:s]]))
        return rows
    rows = []
    for line in Path(path).read_text().splitlines()[1:]:
        d, s, a, *m = (int(v) for v in line.split())
        rows.append(((1 << s) | (a << 1) | 1, m))
    return rows


def main(path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from ember.quasirandom import _primitive_polynomials
    rows = read_table(path)[:DIMS - 1]
    assert [p for p, _ in rows] == _primitive_polynomials(DIMS - 1)
    text = "\n".join(" ".join(np.base_repr(v, 36) for v in m) for _, m in rows)
    blob = base64.b64encode(zlib.compress(text.encode(), 9)).decode()
    lines = [blob[i:i + 96] for i in range(0, len(blob), 96)]
    out = Path(__file__).resolve().parents[1] / "src" / "ember" / "_sobol_table.py"
    out.write_text(
        '"""The initial direction numbers m_1 .. m_s of Joe and Kuo\'s Sobol\' table\n'
        '(new-joe-kuo-6.21201) for dimensions 2 to %d, one line per dimension, each number in\n'
        'base 36; zlib-compressed and base64-encoded. Written by scripts/sobol_table.py."""\n\n'
        'DIMS = %d\n\nDATA = (\n%s\n)\n' % (DIMS, DIMS, "\n".join(f'    "{s}"' for s in lines)))


if __name__ == "__main__":
    main(sys.argv[1])
