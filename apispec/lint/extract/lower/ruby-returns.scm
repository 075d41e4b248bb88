; A method's explicit return values (lower/__init__.py: Lowering.returned); the value
; of its last statement, which Ruby returns too, is read by lower/ruby.py.

(return (argument_list (_) @return.value))
