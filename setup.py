"""The compiled core of the Dots family (`vertex.ai.dots._core`), built at install.

Everything else is in pyproject.toml; setuptools needs this file only for the C extension.
A plain CPython C-API module: it needs nothing but a C compiler and Python's headers.
"""

import platform

from setuptools import Extension, setup

# Hidden visibility: the files share functions (`_core.h`), the module exports only its init.
flags = ["-O3", "-std=c11", "-Wall", "-fvisibility=hidden"]
if platform.machine().lower() in ("x86_64", "amd64"):
    flags.append("-mpopcnt")  # every x86-64 CPU since 2008; one instruction per popcount

setup(
    ext_modules=[
        Extension(
            "vertex.ai.dots._core",
            sources=[
                "src/vertex/ai/dots/_core.c",
                "src/vertex/ai/dots/_table.c",
                "src/vertex/ai/dots/_tablefile.c",
                "src/vertex/ai/dots/_loony.c",
                "src/vertex/ai/dots/_search64.c",
                "src/vertex/ai/dots/_search128.c",
                "src/vertex/ai/dots/_solve.c",
                "src/vertex/ai/dots/_mcts.c",
                "src/vertex/ai/dots/_play.c",
                "src/vertex/ai/dots/_rules.c",
                "src/vertex/ai/dots/_bits.c",
                "src/vertex/ai/dots/_env.c",
            ],
            depends=[
                "src/vertex/ai/dots/_core.h",
                "src/vertex/ai/dots/_play.h",
                "src/vertex/ai/dots/_search.h",
                "src/vertex/ai/dots/_alone.h",
                "src/vertex/ai/dots/_handouts.h",
                "src/vertex/ai/dots/_images.h",
            ],
            extra_compile_args=[*flags, "-pthread"],
            extra_link_args=["-pthread"],
        )
    ]
)
