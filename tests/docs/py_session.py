"""Runs the Python examples of one document for doc_examples.py, in one interpreter.

Reads a JSON list of steps from stdin and writes a JSON list of results to stdout, one per step.
A step is {"kind": "cell", "src": TEXT} (a notebook cell: every top-level statement runs as the
interactive interpreter runs it, so an expression statement shows its value) or {"kind": "repl",
"statements": [TEXT, ...]} (a `>>>` session: each statement's output follows it). A value is shown
as repr(), or pprint's layout at 120 columns when repr() is longer than that; None shows nothing.
In a `>>>` session an exception shows as the last line of its traceback ("module.Type: message");
in a cell it fails the step. All steps share one namespace, as the cells of a notebook do.
"""
import ast
import builtins
import contextlib
import io
import json
import pprint
import sys
import traceback

WIDTH = 120


def display(value):
    if value is None:
        return
    builtins._ = value
    text = repr(value)
    if len(text) > WIDTH:
        text = pprint.pformat(value, width=WIDTH)
    sys.stdout.write(text + "\n")


def run_statement(src, namespace):
    tree = ast.parse(src, "<doc>", "exec")
    for node in tree.body:
        code = compile(ast.Interactive(body=[node]), "<doc>", "single")
        exec(code, namespace)  # noqa: S102 - the documentation's own examples


def exception_line(exc):
    kind = type(exc)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    text = str(exc)
    return f"{name}: {text}" if text else name


def main():
    steps = json.load(sys.stdin)
    namespace = {"__name__": "__main__"}
    sys.displayhook = display
    results = []
    for step in steps:
        out = io.StringIO()
        error = None
        if step["kind"] == "cell":
            with contextlib.redirect_stdout(out):
                try:
                    run_statement(step["src"], namespace)
                except Exception:  # noqa: BLE001 - reported to the checker
                    error = traceback.format_exc()
            results.append({"output": out.getvalue(), "error": error})
        else:
            outputs = []
            for statement in step["statements"]:
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    try:
                        run_statement(statement, namespace)
                    except Exception as exc:  # noqa: BLE001 - shown as the REPL shows it
                        print(exception_line(exc))
                outputs.append(out.getvalue())
            results.append({"outputs": outputs, "error": None})
    json.dump(results, sys.__stdout__)


if __name__ == "__main__":
    main()
