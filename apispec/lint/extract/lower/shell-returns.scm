; A shell function's value is what it prints (lower/shell.py keeps the prints to stdout).

((command_name) @return.value (#any-of? @return.value "echo" "printf"))
