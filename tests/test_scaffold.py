"""``gibson new-variant``: the scaffolded package validates, and once pip-installed into a throwaway
virtual environment it is listed, checked and played through the ``gibson`` command."""

import importlib.util
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import setuptools
from conftest import TUTORIAL, registered

from gibson_core.cli import main
from gibson_core.scaffold import FILES, ScaffoldError, render, scaffold, template_names
from gibson_core.variant import load_variant_file

ROOT = Path(__file__).resolve().parents[1]


def test_names_derived_from_the_variant_name():
    assert template_names("my-game") == {"name": "my-game", "module": "my_game", "package": "gibson_my_game",
                                         "dist": "gibson-my-game", "title": "My Game"}
    for bad in ("My-Game", "my_game", "9lives", "my--game", "-x", ""):
        with pytest.raises(ScaffoldError):
            template_names(bad)


def test_every_template_is_rendered_and_the_python_compiles():
    files = render("pocket-war")
    assert len(files) == len(FILES)
    assert "pocket-war = \"gibson_pocket_war\"" in files["pyproject.toml"]
    for path, text in files.items():
        assert "${" not in text, path
        if path.endswith(".py"):
            compile(text, path, "exec")


def test_the_skeleton_validates_and_the_directory_must_be_empty(tmp_path, capsys):
    root = scaffold("pocket-war", tmp_path / "pw")
    variant = load_variant_file(root / "gibson_pocket_war" / "pocket-war.yaml")
    assert variant.piece_count == 12 <= len(variant.setup_squares["blue"])
    assert main(["validate", str(root / "gibson_pocket_war" / "pocket-war.yaml")]) == 0
    assert "ok: pocket-war" in capsys.readouterr().out
    with pytest.raises(ScaffoldError, match="not empty"):
        scaffold("pocket-war", root)
    with pytest.raises(ScaffoldError, match="already installed"):
        scaffold("lattaque", tmp_path / "again")


def test_the_generated_tests_allow_spare_set_up_squares():
    """The package's own tests hold for any valid variant, such as the tutorial's Fords (20 set-up squares a
    side for 14 pieces), not only the skeleton whose zones it fills exactly."""
    source = render("fords")["tests/test_fords.py"]
    namespace: dict = {"__file__": str(TUTORIAL / "tests" / "test_fords.py")}
    exec(compile(source, "test_fords.py", "exec"), namespace)
    with registered(TUTORIAL, "gibson_fords"):
        namespace["test_the_variant_loads"]()
        namespace["test_vectors_pass"]()


def _can_build_editable() -> bool:
    major, minor = (int(part) for part in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.mark.skipif(not _can_build_editable(), reason="setuptools cannot build editable wheels offline here")
def test_scaffold_install_list_check_and_play(tmp_path):
    env = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    python = env / "bin" / "python"
    env_site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              check=True, capture_output=True, text=True).stdout.strip()
    # The throwaway environment borrows the project's installed dependencies (no network needed).
    (Path(env_site) / "_gibson_project.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    package = tmp_path / "gibson-pocket-war"
    subprocess.run([str(env / "bin" / "python"), "-c", "import sys; from gibson_core.cli import main; "
                    f"sys.exit(main(['new-variant', 'pocket-war', '--dir', {str(package)!r}]))"], check=True)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--no-index", "-e", str(ROOT), "-e", str(package)],
                   check=True, capture_output=True)

    def gibson(*args: str) -> str:
        done = subprocess.run([str(env / "bin" / "gibson"), *args], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    assert "pocket-war" in gibson("list")
    assert gibson("check", str(package / "tests" / "vectors" / "pocket-war.yaml")).strip().endswith("0 failed")
    assert gibson("selfplay", "pocket-war", "--seed", "2").startswith("pocket-war seed 2: ")
    assert "ok: pocket-war" in gibson("validate", str(package / "gibson_pocket_war" / "pocket-war.yaml"))
    tests = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=package,
                           capture_output=True, text=True, timeout=120)
    assert tests.returncode == 0, tests.stdout
