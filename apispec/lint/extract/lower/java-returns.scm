; A function's return values (lower/__init__.py: Lowering.returned).

(return_statement (_) @return.value)
