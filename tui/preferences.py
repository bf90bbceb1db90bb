"""What the workbench remembers between runs (the chosen theme), in the user's config folder.

The folder is platformdirs' user config dir for "tierscope", or `$TIERSCOPE_CONFIG_HOME`
when set (tests and screenshot runs point it at a temporary folder).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from tierscope.debugging import report_exception
from tierscope.file_replace import replace_file

CONFIG_HOME_VARIABLE = "TIERSCOPE_CONFIG_HOME"


def config_home() -> Path:
    """The folder holding preferences.json and themes/."""
    override = os.environ.get(CONFIG_HOME_VARIABLE)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir

    return Path(user_config_dir("tierscope"))


def user_themes_dir() -> Path:
    return config_home() / "themes"


@dataclass(frozen=True, slots=True)
class Preferences:
    theme: str | None = None


def preferences_path() -> Path:
    return config_home() / "preferences.json"


def load_preferences() -> Preferences:
    """The saved preferences; a missing or unreadable file means none were saved."""
    try:
        data = json.loads(preferences_path().read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Preferences()
    except (OSError, ValueError):
        report_exception(f"cannot read {preferences_path()}; no preferences used")
        return Preferences()
    theme = data.get("theme") if isinstance(data, dict) else None
    return Preferences(theme=theme if isinstance(theme, str) else None)


def save_preferences(preferences: Preferences) -> str | None:
    """Write the preferences atomically. Returns a one-line warning instead of raising."""
    path = preferences_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, (json.dumps(asdict(preferences), indent=2) + "\n").encode("utf-8"))
    except OSError as exc:
        return f"could not save preferences to {path}: {exc.strerror or exc}"
    return None
