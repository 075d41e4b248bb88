; A function's return values (lower/__init__.py: Lowering.returned): `return x` and the
; expression a function body or a closure ends with.

(return_expression (_) @return.value)
(function_item body: (block (_) @return.value .))
(closure_expression body: (_) @return.value)
