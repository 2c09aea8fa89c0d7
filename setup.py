"""setuptools drives CMake (docs/python.md, "Installing"): `python3 -m pip install
--no-build-isolation .` configures the project for the running interpreter
(-DPython_EXECUTABLE=sys.executable), builds the extension module's target only, and installs
it beside the package's pure-Python files (python/rnncc) into that interpreter's environment —
a venv's, pyenv's or the system's.

RNNCC_BUILD_DIR=DIR reuses a configured Release tree (.ci/run's `build`): the Python target is
built there when the tree's extension suffix is the running interpreter's (the same CPython
ABI); otherwise, or without the variable, a tree of its own, build-python-<ABI tag>/, is configured
(Release, tests off) and kept for the next install. RNNCC_CMAKE_ARGS adds configure options
(e.g. "-DRNNCC_WITH_GRAPHVIZ=OFF"); CMAKE_BUILD_PARALLEL_LEVEL sets the jobs.

The version is CMakeLists.txt's project(VERSION), the one the module reports as __version__.
"""

import base64
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Command, Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(\s*rnncc\s+VERSION\s+([0-9.]+)", text)
    if not m:
        raise RuntimeError("CMakeLists.txt: no project(rnncc VERSION x.y.z)")
    return m.group(1)


def cache_entries(build_dir: Path) -> dict:
    """CMakeCache.txt's NAME:TYPE=VALUE lines as {NAME: VALUE}."""
    entries = {}
    cache = build_dir / "CMakeCache.txt"
    if cache.is_file():
        for line in cache.read_text(encoding="utf-8", errors="replace").splitlines():
            m = re.match(r"^([A-Za-z_][\w.-]*):[A-Z]+=(.*)$", line)
            if m:
                entries[m.group(1)] = m.group(2)
    return entries


def reusable(build_dir: Path, suffix: str) -> str:
    """Why `build_dir` cannot give this interpreter its module ("" when it can)."""
    entries = cache_entries(build_dir)
    if not entries:
        return f"{build_dir} is not a configured CMake tree"
    if entries.get("CMAKE_BUILD_TYPE") != "Release":
        return f"{build_dir} is not a Release tree"
    if entries.get("CMAKE_HOME_DIRECTORY") and \
            Path(entries["CMAKE_HOME_DIRECTORY"]).resolve() != ROOT:
        return f"{build_dir} was configured for another source tree"
    theirs = entries.get("PYTHON_MODULE_EXTENSION")
    if theirs is None:
        return f"{build_dir} builds no Python module (pybind11 not found, or RNNCC_WITH_PYTHON=OFF)"
    if theirs != suffix:
        return f"{build_dir} builds {theirs} modules, this interpreter loads {suffix}"
    return ""


class CMakeExtension(Extension):
    def __init__(self, name: str):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        given = os.environ.get("RNNCC_BUILD_DIR")
        build_dir = None
        if given:
            candidate = Path(given)
            if not candidate.is_absolute():
                candidate = ROOT / candidate
            why = reusable(candidate, suffix)
            if why:
                print(f"rnncc: not reusing RNNCC_BUILD_DIR: {why}", flush=True)
            else:
                build_dir = candidate
                print(f"rnncc: reusing {build_dir} (extension suffix {suffix})", flush=True)
        if build_dir is None:
            tag = sysconfig.get_config_var("SOABI") or f"py{sys.version_info[0]}{sys.version_info[1]}"
            build_dir = ROOT / f"build-python-{tag}"  # beside build/: ccache's relative paths match
            configure = ["cmake", "-S", str(ROOT), "-B", str(build_dir),
                         "-DCMAKE_BUILD_TYPE=Release", "-DRNNCC_BUILD_TESTS=OFF",
                         "-DRNNCC_WITH_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"] if not (build_dir / "CMakeCache.txt").exists() else []
            configure += shlex.split(os.environ.get("RNNCC_CMAKE_ARGS", ""))
            subprocess.run(configure, check=True)
            why = reusable(build_dir, suffix)
            if why:
                raise RuntimeError(f"rnncc: the configured tree cannot build the module: {why}")
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "rnncc_python"],
                       check=True)
        built = build_dir / "python" / "rnncc" / f"_rnncc{suffix}"
        if not built.is_file():
            raise RuntimeError(f"rnncc: the build made no {built}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


class PlainWheel(Command):
    """bdist_wheel where the `wheel` package is missing (setuptools < 70 lacks its own; a pyenv
    or venv interpreter often has neither, and --no-build-isolation fetches nothing): the built
    package (build_py + build_ext) and its .dist-info, zipped as a wheel (PEP 427) for this
    interpreter's tag. Also the egg2dist that setuptools' dist_info asks bdist_wheel for."""

    description = "build a wheel without the wheel package"
    user_options = [("dist-dir=", "d", "where to put the wheel")]

    def initialize_options(self):
        self.dist_dir = None

    def finalize_options(self):
        self.dist_dir = self.dist_dir or "dist"

    @staticmethod
    def egg2dist(egginfo_path, distinfo_path):
        os.makedirs(distinfo_path, exist_ok=True)
        shutil.copyfile(os.path.join(egginfo_path, "PKG-INFO"),
                        os.path.join(distinfo_path, "METADATA"))
        top = os.path.join(egginfo_path, "top_level.txt")
        if os.path.isfile(top):
            shutil.copyfile(top, os.path.join(distinfo_path, "top_level.txt"))
        shutil.rmtree(egginfo_path)

    def run(self):
        import zipfile

        self.run_command("build")
        build_lib = Path(self.get_finalized_command("build").build_lib)
        egg_info = self.get_finalized_command("egg_info")
        egg_info.run()
        name, version = self.distribution.get_name(), self.distribution.get_version()
        tag = "cp{0}{1}-cp{0}{1}-{2}".format(
            sys.version_info[0], sys.version_info[1],
            re.sub(r"[-.]", "_", sysconfig.get_platform()))
        dist_info = f"{name}-{version}.dist-info"
        staging = Path(self.get_finalized_command("build").build_base) / "wheel" / dist_info
        if staging.exists():
            shutil.rmtree(staging)
        self.egg2dist(egg_info.egg_info, str(staging))
        (staging / "WHEEL").write_text(
            f"Wheel-Version: 1.0\nGenerator: rnncc setup.py\nRoot-Is-Purelib: false\nTag: {tag}\n")
        files = [(p, p.relative_to(build_lib).as_posix()) for p in sorted(build_lib.rglob("*"))
                 if p.is_file() and "__pycache__" not in p.parts]
        files += [(p, f"{dist_info}/{p.name}") for p in sorted(staging.iterdir())]
        os.makedirs(self.dist_dir, exist_ok=True)
        wheel = Path(self.dist_dir) / f"{name}-{version}-{tag}.whl"
        record = []
        with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
            for path, arc in files:
                data = path.read_bytes()
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                record.append(f"{arc},sha256={digest.decode()},{len(data)}")
                z.writestr(arc, data)
            record.append(f"{dist_info}/RECORD,,")
            z.writestr(f"{dist_info}/RECORD", "\n".join(record) + "\n")


commands = {"build_ext": CMakeBuild}
try:
    import wheel  # noqa: F401  (its bdist_wheel is the usual one)
except ImportError:
    try:
        from setuptools.command.bdist_wheel import bdist_wheel  # noqa: F401  (setuptools ≥ 70.1)
    except ImportError:
        commands["bdist_wheel"] = PlainWheel

setup(
    version=project_version(),
    packages=["rnncc"],
    package_dir={"rnncc": "python/rnncc"},
    ext_modules=[CMakeExtension("rnncc._rnncc")],
    cmdclass=commands,
    zip_safe=False,
    # setuptools' own scratch space, away from the CMake trees build/ and build-*/.
    options={"build": {"build_base": "build-python/setuptools"},
             "egg_info": {"egg_base": "build-python"}},
)
