"""benchlens: the top-level package the wheel installs. Its subpackages are the repository's own
top-level folders, installed under this name so that no `app` or `importers` lands in
site-packages: benchlens.app is app/, benchlens.importers is importers/ (pyproject.toml maps them
with package-dir). In a checkout, benchlens/app and benchlens/importers are symlinks to those
folders, so pytest, mypy and import-linter find `benchlens.*` in the checkout itself."""
