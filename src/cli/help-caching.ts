/**
 * yargs renders a subcommand's whole help text as it starts the command's handler, to show it should the handler fail
 * (`plan`, `diff` and `init`; not the default command). Our `fail` handler never shows it, and rendering it measured
 * 40-50 ms of every `plan` run (string widths of each option's description). `--help` renders its own, as before.
 */
export function withoutHelpCaching(parser: object): void {
  const internal = (parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } })
    .getInternalMethods;
  const usage = typeof internal === 'function' ? internal.call(parser).getUsageInstance?.() : undefined;
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;
}
