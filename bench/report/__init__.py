"""Reports of a benchmark run: the terminal table (table.py) and the report folder (folder.py)."""

from bench.report.folder import write_report
from bench.report.table import print_summary

__all__ = ["print_summary", "write_report"]
