; A function's return values (lower/__init__.py: Lowering.returned); an expression body
; (`=> expr`) is what the function returns.

(return_statement (_) @return.value)
(arrow_expression_clause (_) @return.value)
