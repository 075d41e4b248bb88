; A function's return values (lower/__init__.py: Lowering.returned).

(return_expression (_) @return.value)
