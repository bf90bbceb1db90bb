"""Where a project's context store lives.

`$TIERSCOPE_STORE` > `store.path` in the config (root-relative, and only when it lies
inside the root, links resolved: the project's config does not choose where on the
machine tierscope writes) > a file per project under the user data dir:
`<user data dir>/tierscope/projects/<root-name>-<8 hex of crc32(root)>/context.sqlite`.
The hash keeps two projects with the same folder name apart; the name keeps the folder
recognisable to a person.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..config.model import Config
from ..project import contain, project_key, user_dir

STORE_ENV = "TIERSCOPE_STORE"
STORE_FILENAME = "context.sqlite"


def store_path(root: Path, config: Config) -> Path:
    """The database file for the project at `root`. Pure: nothing is created."""
    override = os.environ.get(STORE_ENV)
    if override:
        return Path(override).expanduser().absolute()
    if config.store.path and contain(config.store.path, root.resolve())[0] is not None:
        configured = Path(config.store.path).expanduser()
        return configured if configured.is_absolute() else root / configured
    return default_store_dir(root) / STORE_FILENAME


def default_store_dir(root: Path) -> Path:
    """The per-project folder under the user data dir."""
    return user_dir("data") / "projects" / project_key(root)
