"""Rapa Nui's rules as data (docs/rapa-nui-rules.md): the card and action codes, the component
set read from TOML, the rule options and parameters, and the frozen `Rules` object."""

from moaisim.games.rapa_nui.rules.model import Rules, default_components, make_rules
from moaisim.games.rapa_nui.rules.options import OPTIONS, VARIANTS
from moaisim.games.rapa_nui.rules.parameters import PARAMETERS

__all__ = ["OPTIONS", "PARAMETERS", "VARIANTS", "Rules", "default_components", "make_rules"]
