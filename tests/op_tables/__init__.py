"""The operator table's entries for the later op families, one module per family.

Each module adds entries with `op_table.op(...)`; `op_table` imports them all at its end.
"""
