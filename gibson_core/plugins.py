"""Plugin discovery. Built-in variants are found exactly like third-party ones: through the
``gibson.variants`` entry point group. Each game then gets its own small plugin manager.

Set ``GIBSON_TRACE_PLUGINS=1`` to print every hook call to stderr, redacted (:mod:`.plugintrace`).
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

import attrs
import pluggy

from . import hookspecs
from .errors import PluginError, Problem, VariantError, quote
from .options import check_option_values, did_you_mean
from .plugintrace import enable_trace, tracing_enabled
from .variant import Variant, VariantSpec, load_variant_file

ENTRY_POINT_GROUP = "gibson.variants"

_GLOBAL: pluggy.PluginManager | None = None
_SPECS: dict[str, VariantSpec] | None = None
_LOAD_ERRORS: list[PluginError] = []


def _trace(pm: pluggy.PluginManager) -> None:
    if tracing_enabled():
        enable_trace(pm)


def plugin_manager() -> pluggy.PluginManager:
    """The global plugin manager with every installed variant package registered (built once)."""
    global _GLOBAL
    if _GLOBAL is None:
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                plugin = ep.load()
            except Exception as exc:  # a broken third-party package must not stop the others
                _LOAD_ERRORS.append(PluginError(f"{ep.name} ({ep.value})", f"failed to import: {exc!r}"))
                continue
            if pm.is_registered(plugin) or pm.get_plugin(ep.name):
                continue
            try:
                pm.register(plugin, name=ep.name)
            except Exception as exc:
                _LOAD_ERRORS.append(PluginError(ep.name, f"failed to register: {exc}"))
        pm.check_pending()
        _trace(pm)
        _GLOBAL = pm
    return _GLOBAL


def register_plugin(plugin, name: str | None = None) -> None:
    """Register a variant plugin object at run time (tests, notebooks); it is then listed like the others."""
    global _SPECS
    plugin_manager().register(plugin, name=name)
    _SPECS = None


def load_errors() -> list[PluginError]:
    """Plugins that failed to import or register, each naming the plugin."""
    plugin_manager()
    return list(_LOAD_ERRORS)


def variant_specs() -> dict[str, VariantSpec]:
    """Every registered variant by name."""
    global _SPECS
    if _SPECS is None:
        pm = plugin_manager()
        specs: dict[str, VariantSpec] = {}
        for impl in pm.hook.gibson_register_variants.get_hookimpls():
            try:
                answer = impl.function()
            except Exception as exc:
                raise PluginError(impl.plugin_name, f"gibson_register_variants failed: {exc!r}") from exc
            for spec in answer or []:
                if not isinstance(spec, VariantSpec):
                    raise PluginError(impl.plugin_name, f"gibson_register_variants returned {spec!r}, not a VariantSpec")
                if spec.name in specs:
                    raise PluginError(impl.plugin_name, f"variant {spec.name!r} is already registered")
                specs[spec.name] = spec
        _SPECS = specs
    return _SPECS


def variant_names() -> list[str]:
    """Registered variant names, sorted."""
    return sorted(variant_specs())


def game_plugin_manager(spec: VariantSpec, variant: Variant) -> pluggy.PluginManager:
    """A fresh manager for one game: the variant's rule hooks and its enabled option plugins."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for hooks in _rule_plugins(spec, variant):
        pm.register(hooks)
    pm.check_pending()
    _trace(pm)
    return pm


# The core's own rule modules, registered for a game whenever its data declares the section they serve.
CORE_RULES = {"effects": "gibson_core.effects", "flags": "gibson_core.tokens"}


def _rule_plugins(spec: VariantSpec, variant: Variant) -> list:
    plugins = [importlib.import_module(module) for section, module in CORE_RULES.items() if section in variant.rules]
    spec = variant.spec or spec  # the compiled spec carries hooks inherited from a parent variant
    if spec.hooks is not None:
        rule_hooks = getattr(spec.hooks, "RULES", spec.hooks)
        listed = rule_hooks if isinstance(rule_hooks, list | tuple) else [rule_hooks]
        plugins.extend(hooks for hooks in listed if hooks not in plugins)
    for option, value in variant.options.items():
        target = (variant.option_specs.get(option) or {}).get("hooks")
        if value and target:
            try:
                plugins.append(importlib.import_module(target))
            except Exception as exc:
                raise PluginError(target, f"option {option!r} of {variant.name}: cannot import its hooks: {exc!r}") from exc
    return plugins


_VARIANT_CACHE: dict[tuple, Variant] = {}


def load_variant(name: str, options: dict | None = None) -> Variant:
    """Load, validate and compile a registered variant with options (cached per name and options)."""
    specs = variant_specs()
    if not isinstance(name, str) or name not in specs:
        raise _unknown_variant(name, specs)
    if options:  # typed and checked against the plain variant's declared options, so they make a cache key
        options = check_option_values(load_variant(name).option_specs, options, name)
    key = (name, tuple(sorted((options or {}).items())))
    cached = _VARIANT_CACHE.get(key)
    if cached is not None:
        return cached
    spec = specs[name]
    variant = load_variant_file(spec.path, options, spec)
    pm = game_plugin_manager(spec, variant)
    variant = _with_manager(variant, pm)
    _VARIANT_CACHE[key] = variant
    return variant


def _with_manager(variant: Variant, pm: pluggy.PluginManager) -> Variant:
    return attrs.evolve(variant, plugin_manager=pm)


def _unknown_variant(name, specs: dict) -> VariantError:
    known = ", ".join(sorted(specs)) or "none installed"
    text = f"unknown variant {quote(name)} (variants: {known})"
    match = did_you_mean(name, specs) if isinstance(name, str) else None
    if match:
        text += f"; did you mean {match!r}?"
    return VariantError(Problem("<registry>", "", None, text))
