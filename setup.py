"""Maps the top-level ``templates/`` folder into the package as ``service.templates``.

The design card wants templates at the top level; installing them as package data of
``service`` is what makes a plain ``pip install .`` give a working service.  Everything
else about the distribution is in pyproject.toml.
"""

from setuptools import find_packages, setup

packages = find_packages(include=["service", "service.*", "worker", "worker.*", "events",
                                  "events.*", "games", "games.*"])
setup(
    packages=[*packages, "service.templates"],
    package_dir={"service.templates": "templates"},
    package_data={"service.templates": ["*.html", "*.txt", "**/*.html", "**/*.txt",
                                        "translations/*/LC_MESSAGES/*.po",
                                        "translations/*/LC_MESSAGES/*.mo"],
                  "service": ["static/*.css", "static/*.js", "static/*.svg"],
                  "": ["*.json", "*.md", "data/*.json", "**/*.json"]},
)
