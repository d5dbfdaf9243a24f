#!/usr/bin/env python3
"""Unit checks of doc_examples.py's rules: `...` matching, --update's regeneration, block parsing.

    python3 tests/docs/doc_examples_test.py
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_examples as de  # noqa: E402


class Matching(unittest.TestCase):
    def test_exact(self):
        self.assertTrue(de.matches(["a", "b"], ["a", "b"])[0])
        ok, bad = de.matches(["a", "b", "c"], ["a", "x", "c"])
        self.assertFalse(ok)
        self.assertEqual(bad, 1)

    def test_line_elision_any_number(self):
        shown = ["head", "...", "tail"]
        self.assertTrue(de.matches(shown, ["head", "tail"])[0])
        self.assertTrue(de.matches(shown, ["head", "1", "2", "tail"])[0])
        self.assertFalse(de.matches(shown, ["head", "1", "2"])[0])
        self.assertTrue(de.matches(["  ..."], ["anything", "at all"])[0])

    def test_no_elision_means_the_whole_output(self):
        self.assertFalse(de.matches(["a"], ["a", "b"])[0])
        self.assertFalse(de.matches(["a", "b"], ["a"])[0])

    def test_inline_elision(self):
        self.assertTrue(de.line_matches('{"a":1,...,"z":2}', '{"a":1,"b":[3],"z":2}'))
        self.assertFalse(de.line_matches('{"a":1,...,"z":2}', '{"a":9,"b":[3],"z":2}'))
        self.assertTrue(de.line_matches("x (a regex char.) ...", "x (a regex char.) tail"))

    def test_clean_drops_trailing_space_and_blank_lines(self):
        self.assertEqual(de.clean(["a  ", "", ""]), ["a"])


class Regenerate(unittest.TestCase):
    def test_without_elision_the_run(self):
        self.assertEqual(de.regenerate(["old"], ["new", "lines"]), ["new", "lines"])

    def test_keeps_elision_and_follows_rows_by_key(self):
        shown = ["field  value", "alpha  1", "...", "omega  9"]
        actual = ["field  value", "alpha  2", "beta  3", "gamma  4", "omega  8"]
        new = de.regenerate(shown, actual)
        self.assertEqual(new, ["field  value", "alpha  2", "...", "omega  8"])
        self.assertTrue(de.matches(new, actual)[0])

    def test_new_lines_between_adjacent_rows_are_shown(self):
        shown = ["a  1", "c  3"]
        new = de.regenerate(shown + ["..."], ["a  1", "b  2", "c  3", "d  4"])
        self.assertEqual(new, ["a  1", "b  2", "c  3", "..."])

    def test_rule_lines_follow_the_table_width(self):
        new = de.regenerate(["h  v", "-  -", "..."], ["hh  v", "--  -", "x  1"])
        self.assertEqual(new, ["hh  v", "--  -", "..."])


class Parsing(unittest.TestCase):
    def parse(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
            f.write(text)
        try:
            return de.collect([f.name])
        finally:
            os.unlink(f.name)

    def test_unmarked_block_fails(self):
        _, errors, _ = self.parse("text\n\n```\nsome command\n```\n")
        self.assertEqual(len(errors), 1)
        self.assertIn(":3: a fenced block that is not run", errors[0])

    def test_indented_fence_is_checked_too(self):
        _, errors, _ = self.parse("- a list item:\n\n  ```\n  gpuadvisor show p5.48xlarge\n  ```\n")
        self.assertEqual(len(errors), 1)

    def test_skip_needs_a_reason(self):
        _, errors, stats = self.parse("<!-- doc-example: skip (a formula) -->\n```\nx = 1\n```\n")
        self.assertEqual((errors, stats["skipped"]), ([], 1))
        _, errors, _ = self.parse("<!-- doc-example: skip -->\n```\nx = 1\n```\n")
        self.assertEqual(len(errors), 1)

    def test_marker_applies_only_to_the_next_block(self):
        _, errors, _ = self.parse("<!-- doc-example: skip (why) -->\n\nprose\n\n```\nx\n```\n")
        self.assertEqual(len(errors), 1)

    def test_console_and_cells_run(self):
        jobs, errors, stats = self.parse("```\n$ gpuadvisor --version\ngpuadvisor 1\n```\n"
                                         "```python\n1 + 1\n```\n```\n2\n```\n")
        self.assertEqual(errors, [])
        self.assertEqual(sorted(kind for kind, _ in jobs), ["cells", "console"])
        self.assertEqual(stats["run"], 2)

    def test_setup_marker_keeps_the_block_run(self):
        jobs, errors, _ = self.parse("<!-- doc-example: setup\ntouch x\n-->\n```\n$ ls\nx\n```\n")
        self.assertEqual((len(jobs), errors), (1, []))
        self.assertTrue(jobs[0][1].marker.startswith("setup"))

    def test_continuation_lines(self):
        jobs, _, _ = self.parse("```\n$ echo a \\\n    b\na b\n```\n")
        items = de.split_console(jobs[0][1])
        self.assertEqual(items[0][1], "echo a \\\n    b")
        self.assertEqual(items[0][3], ["a b"])


if __name__ == "__main__":
    unittest.main()
