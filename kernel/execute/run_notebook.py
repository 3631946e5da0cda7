"""Executes one notebook through a real Jupyter kernel, cell by cell, for the book checker.

Usage: run_notebook.py IN.ipynb OUT.ipynb KERNEL CELL_TIMEOUT_S STARTUP_TIMEOUT_S

Writes the executed notebook (up to and including the first failing cell) to OUT.ipynb, each
executed cell with its running time in its metadata ({"agentrl": {"seconds": S}}: the kernel's own
timestamps, which Jupyter would record, have whole seconds only), and one JSON object on stdout:
  {"status": "ok"}
  {"status": "failed", "cell": INDEX, "kind": "error"|"timeout"|"dead-kernel"|"startup", "message": "..."}
INDEX is the 0-based position of the failing cell among all cells. Exit status 0 either way;
anything else means this script itself failed.
"""
import json
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError


def main():
    src, dst, kernel, cell_timeout, startup_timeout = sys.argv[1:6]
    nb = nbformat.read(src, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    client = NotebookClient(
        nb,
        kernel_name=kernel,
        timeout=int(cell_timeout),
        startup_timeout=int(startup_timeout),
        allow_errors=False,
        interrupt_on_timeout=False,
        record_timing=False,
        shutdown_kernel="immediate",
        resources={"metadata": {"path": "."}},
    )
    result = {"status": "ok"}
    index = -1
    try:
        with client.setup_kernel():
            # Jupyter stores the kernel's language_info in every notebook it opens; record it
            # here the same way, so that opening a recorded chapter changes nothing.
            reply = client.wait_for_reply(client.kc.kernel_info())
            if reply is not None and "language_info" in reply["content"]:
                nb.metadata["language_info"] = reply["content"]["language_info"]
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                start = time.monotonic()
                try:
                    client.execute_cell(cell, index)
                except CellTimeoutError as e:
                    result = failed(index, "timeout", f"no result within {cell_timeout} s: {first_line(e)}")
                    break
                except DeadKernelError as e:
                    result = failed(index, "dead-kernel", str(e))
                    break
                except CellExecutionError as e:
                    result = failed(index, "error", error_text(cell, e))
                    break
                finally:
                    cell.metadata["agentrl"] = {"seconds": round(time.monotonic() - start, 3)}
    except RuntimeError as e:  # kernel did not start
        result = failed(max(index, 0), "startup", str(e))
    nbformat.write(nb, dst)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


def failed(index, kind, message):
    return {"status": "failed", "cell": index, "kind": kind, "message": message}


def first_line(e):
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


def error_text(cell, e):
    """The kernel's own words: its error outputs and stderr, else the exception's summary."""
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            parts.append(f"{out.get('ename', '')}: {out.get('evalue', '')}".strip(": "))
        elif out.get("output_type") == "stream" and out.get("name") == "stderr":
            parts.append(out.get("text", ""))
    text = "\n".join(p for p in parts if p).strip()
    return text or first_line(e)


if __name__ == "__main__":
    main()
