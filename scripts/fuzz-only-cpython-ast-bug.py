#!/usr/bin/env python3
"""Whether a schemathesis report failed only on CPython 3.11's AST recursion-depth bug.

CPython 3.11 leaves its AST depth counter off when an exception (here, the fuzzer's time
budget running out) interrupts `ast.parse`; the next parse then raises "AST constructor
recursion depth mismatch" (python/cpython#106905, fixed in 3.12). Hypothesis parses a
module's source to describe a lambda, so schemathesis reports a "Runtime Error" on whatever
operation it was generating for. That is the tool failing, not the API: this script exits 0
only when every error of the report is that one, no check failed, and every generated case
passed. Anything else (a failure, another error) exits 1.

    >>> ok = '''
    ... ==== ERRORS ====
    ... ____ POST /caixa/{id}/reopen ____
    ... Runtime Error
    ...
    ... AST constructor recursion depth mismatch (before=69, after=58)
    ... ==== SUMMARY ====
    ... Test cases:
    ...   5780 generated, 5780 passed
    ... '''
    >>> only_the_cpython_bug(ok)
    True
    >>> only_the_cpython_bug(ok.replace('AST constructor recursion depth mismatch', 'KeyError'))
    False
    >>> only_the_cpython_bug(ok.replace('5780 passed', '5779 passed, 1 failed'))
    False
    >>> only_the_cpython_bug(ok.replace('==== ERRORS', '==== FAILURES ====\\n____ GET /x ____\\n==== ERRORS'))
    False
"""

import re
import sys

BUG = "AST constructor recursion depth mismatch"


def only_the_cpython_bug(report: str) -> bool:
    if re.search(r"^=+ FAILURES =+$", report, re.M):
        return False
    errors = re.search(r"^=+ ERRORS =+$(.*?)(?=^=+ [A-Z]+ =+$)", report, re.M | re.S)
    if not errors:
        return False
    blocks = re.split(r"^_{3,} .+ _{3,}$", errors.group(1), flags=re.M)[1:]
    if not blocks or not all(BUG in block for block in blocks):
        return False
    cases = re.search(r"^\s*(\d+) generated, (\d+) passed\s*$", report, re.M)
    return bool(cases) and cases.group(1) == cases.group(2)


if __name__ == "__main__":
    if sys.argv[1:] == ["--test"]:
        import doctest

        sys.exit(doctest.testmod().failed)
    with open(sys.argv[1], encoding="utf-8") as file:
        sys.exit(0 if only_the_cpython_bug(file.read()) else 1)
