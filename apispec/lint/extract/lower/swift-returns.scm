; A function's return values (lower/__init__.py: Lowering.returned).

(control_transfer_statement result: (_) @return.value)
