"""The README's commands and CI stay in step."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def readme_commands():
    text = open(os.path.join(ROOT, "README.md")).read()
    section = text.split("## Three commands", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ")]


def test_readme_has_the_three_commands():
    cmds = readme_commands()
    assert cmds == ["pip install -e . && python -m drivers.amd.probe",
                    "pip install -e '.[test]' && python -m pytest -q",
                    "pip install -e '.[examples]' && python -m tensor.examples.mlp"]


def test_the_extras_the_readme_installs_exist():
    setup = open(os.path.join(ROOT, "setup.py")).read()
    extras = re.search(r"extras_require=\{(.*?)\}", setup, re.S).group(1)
    assert '"test":' in extras and '"examples": ["scikit-learn' in extras


def test_ci_runs_the_readme_test_command_verbatim():
    ci = open(os.path.join(ROOT, ".ci", "run")).read()
    last = [line for line in ci.splitlines() if line.strip() and not line.startswith("#")][-1]
    assert last == readme_commands()[1]


def test_runtime_dependencies_are_only_the_allowed_ones():
    setup = open(os.path.join(ROOT, "setup.py")).read()
    deps = re.search(r"install_requires=\[(.*?)\]", setup, re.S).group(1)
    names = {re.match(r"[A-Za-z0-9_.-]+", d.strip().strip('"')).group(0) for d in deps.split(",") if d.strip()}
    assert names <= {"cffi", "numpy", "pyelftools", "capstone"}


# Lower layers never import upper ones: the assemblers and the UAPI bindings are standalone.
LAYERS = {"assembler": ("drivers", "tensor", "hw_tests"),
          "kfd_ioctl": ("drivers", "tensor", "hw_tests", "assembler"),
          "nv_ioctl": ("drivers", "tensor", "hw_tests", "assembler"),
          "kgsl_ioctl": ("drivers", "tensor", "hw_tests", "assembler"),
          "drivers": ("tensor", "hw_tests")}


def test_lower_layers_never_import_upper_ones():
    import pathlib
    root = pathlib.Path(ROOT)
    bad = []
    for package, forbidden in LAYERS.items():
        for path in sorted((root / package).rglob("*.py")):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                m = re.match(r"\s*(?:from|import)\s+(\w+)", line)
                if m and m.group(1) in forbidden:
                    bad.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    assert not bad, "upper layer imported from a lower one:\n" + "\n".join(bad)


def test_nothing_points_outside_the_repository():
    """Docs and code link only what is in the checkout (no ../shared, no absolute machine paths)."""
    import pathlib
    root = pathlib.Path(ROOT)
    bad = []
    for path in [root / "README.md", *root.glob("docs/*.md"), *root.glob("examples/*"), *root.rglob("*/README.md")]:
        if path.is_file() and ".git" not in path.parts:
            text = path.read_text(errors="replace")
            for needle in ("../shared", "/work/", "DESIGN.md"):
                if needle in text:
                    bad.append(f"{path.relative_to(root)}: {needle}")
    assert not bad, bad
    assert (root / "docs" / "ARCHITECTURE.md").exists() and "docs/ARCHITECTURE.md" in (root / "README.md").read_text()
