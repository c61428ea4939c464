"""`ascendir-opt`: runs pass pipelines over the AscendIR (in the spirit of mlir-opt / xdsl-opt).

The IR and its passes arrive with the IR issue; until then the tool says so plainly and exits 2.
"""

from __future__ import annotations

import sys

import click


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("path", type=click.Path())
@click.option("--passes", default="", help="Comma-separated pass pipeline.")
@click.option("--print-ir", is_flag=True, help="Print the IR after the pipeline.")
def main(path: str, passes: str, print_ir: bool) -> None:
    """Lower PATH to AscendIR and run a pass pipeline."""
    click.echo("ascendir-opt: the AscendIR lowering is not built yet (it comes with the IR issue); "
               "use `ascendc-check --dump-ast` to inspect the frontend's output", err=True)
    sys.exit(2)


if __name__ == "__main__":
    main()
