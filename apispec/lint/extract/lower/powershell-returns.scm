; A function's output (lower/__init__.py: Lowering.returned): what `return` gives, and
; every statement of its body that is an expression alone (PowerShell functions write
; each such value to their output: `function Get-Filter { '... {0}' -f $Parent }`).

(flow_control_statement "return" (pipeline) @return.value)
(script_block_body
  (statement_list (pipeline (pipeline_chain . (logical_expression) @return.value .))))
(statement_block
  (statement_list (pipeline (pipeline_chain . (logical_expression) @return.value .))))
