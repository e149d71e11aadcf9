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
from .hookcheck import refuse_unknown_hooks
from .options import check_option_values, did_you_mean
from .plugintrace import enable_trace, tracing_enabled
from .schema import describe
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
                _LOAD_ERRORS.append(PluginError(f"{ep.name} ({ep.value})", f"failed to import: {quote(exc)}"))
                continue
            if pm.is_registered(plugin) or pm.get_plugin(ep.name):
                continue
            try:
                pm.register(plugin, name=ep.name)
                refuse_unknown_hooks(pm, plugin, f"{ep.name} ({ep.value})")
            except PluginError as exc:  # a typo in a hook name: this package is left out, the others work
                pm.unregister(plugin)
                _LOAD_ERRORS.append(exc)
            except Exception as exc:
                _LOAD_ERRORS.append(PluginError(ep.name, f"failed to register: {exc}"))
        pm.check_pending()
        _trace(pm)
        _GLOBAL = pm
    return _GLOBAL


def register_plugin(plugin, name: str | None = None) -> None:
    """Register a variant plugin object at run time (tests, notebooks); it is then listed like the others."""
    global _SPECS
    pm = plugin_manager()
    pm.register(plugin, name=name)
    try:
        refuse_unknown_hooks(pm, plugin, name or getattr(plugin, "__name__", repr(plugin)[:60]))
    except PluginError:
        pm.unregister(plugin)
        raise
    _SPECS = None


def load_errors() -> list[PluginError]:
    """Plugins that failed to import, register or answer ``gibson_register_variants``, each naming the
    plugin (and the hook); every other plugin's variants are there all the same."""
    plugin_manager()
    variant_specs()
    return list(_LOAD_ERRORS) + list(_SPEC_ERRORS)


_SPEC_ERRORS: list[PluginError] = []


def variant_specs() -> dict[str, VariantSpec]:
    """Every registered variant by name. A plugin whose answer is broken (an exception, something other than
    VariantSpecs, a name already taken) adds none of its variants and is listed by :func:`load_errors`."""
    global _SPECS
    if _SPECS is None:
        pm = plugin_manager()
        specs: dict[str, VariantSpec] = {}
        _SPEC_ERRORS.clear()
        for impl in pm.hook.gibson_register_variants.get_hookimpls():
            try:
                answer = _variant_answer(impl, specs)
            except PluginError as exc:
                _SPEC_ERRORS.append(exc)
                continue
            specs.update(answer)
        _SPECS = specs
    return _SPECS


def _variant_answer(impl, taken: dict) -> dict[str, VariantSpec]:
    hook = "gibson_register_variants"
    try:
        answer = impl.function()
    except Exception as exc:  # third-party code: any failure is reported, not raised
        raise PluginError(impl.plugin_name, f"{hook} failed: {str(exc)[:200]}") from exc
    if answer is None:
        return {}
    if not isinstance(answer, list | tuple):
        raise PluginError(impl.plugin_name, f"{hook} returned {describe(answer)}, not a list of VariantSpecs")
    out: dict[str, VariantSpec] = {}
    for spec in answer:
        if not isinstance(spec, VariantSpec):
            raise PluginError(impl.plugin_name, f"{hook} returned {describe(spec)}, not a VariantSpec")
        if spec.name in taken or spec.name in out:
            raise PluginError(impl.plugin_name, f"{hook}: variant {quote(spec.name, 40)} is already registered")
        out[spec.name] = spec
    return out


def variant_names() -> list[str]:
    """Registered variant names, sorted."""
    return sorted(variant_specs())


def game_plugin_manager(spec: VariantSpec, variant: Variant) -> pluggy.PluginManager:
    """A fresh manager for one game: the variant's rule hooks and its enabled option plugins."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for hooks in _rule_plugins(spec, variant):
        name = getattr(hooks, "__name__", None) or f"{type(hooks).__name__} of {spec.name}"
        try:
            pm.register(hooks)
        except pluggy.PluginValidationError as exc:  # a hook with arguments its spec lacks
            raise PluginError(name, f"rule hooks of {spec.name}: {exc}") from None
        refuse_unknown_hooks(pm, hooks, f"{name} (rule hooks of {spec.name})")
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
                raise PluginError(target, f"option {quote(option)} of {variant.name}: cannot import its hooks: {quote(exc)}") from exc
    return plugins


_VARIANT_CACHE: dict[tuple, Variant] = {}


def load_variant(name: str, options: dict | None = None) -> Variant:
    """Load, validate and compile a registered variant with options (cached per name and options)."""
    specs = variant_specs()
    if not isinstance(name, str) or name not in specs:
        raise _unknown_variant(name, specs)
    if options:  # typed and checked against the plain variant's declared options, so they make a cache key
        plain = load_variant(name)
        options = check_option_values(plain.option_specs, options, name)
        # an option given at its default changes nothing: the plain variant's key (an Observation spells
        # every option out, and the search's load of it from there must be the object its set-up saw)
        options = {k: v for k, v in options.items() if v != plain.options.get(k)}
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
    return VariantError(Problem("", "", None, text))
