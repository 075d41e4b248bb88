; `shift` and `shift N` in a function (lower/shell.py: which word `$1` names after them).

((command_name) @shift (#eq? @shift "shift"))
