/**
 * The proxy variables every command that goes on the network honours, read as curl and undici read them: the
 * lower-case name first (`https_proxy`), then the upper-case one. A variable set to an empty string counts as unset.
 */
import { ENV } from '../config.js';
import { proxySettingIssues, type ProxySettings } from '../core/proxy.js';
import { UsageError } from './command.js';
import type { CommandContext } from './spec.js';

/** Each setting and its variables, in the order they are looked at. */
const PROXY_VARIABLES: Record<keyof ProxySettings, readonly string[]> = {
  httpProxy: [ENV.httpProxy.toLowerCase(), ENV.httpProxy],
  httpsProxy: [ENV.httpsProxy.toLowerCase(), ENV.httpsProxy],
  noProxy: [ENV.noProxy.toLowerCase(), ENV.noProxy],
};

/**
 * The proxy the environment names, or undefined when it names none. A proxy address that is not an http(s) URL is a
 * usage error naming the variable (never its value: it may hold a password).
 */
export function proxyFromEnvironment(env: CommandContext['env']): ProxySettings | undefined {
  const settings: ProxySettings = {};
  const source: Partial<Record<keyof ProxySettings, string>> = {};
  for (const [setting, names] of Object.entries(PROXY_VARIABLES) as Array<[keyof ProxySettings, readonly string[]]>) {
    const name = names.find((n) => env[n] !== undefined && env[n].trim() !== '');
    if (name === undefined) continue;
    settings[setting] = env[name]!.trim();
    source[setting] = name;
  }
  if (!settings.httpProxy && !settings.httpsProxy) return undefined;
  const issue = proxySettingIssues(settings)[0];
  if (issue) throw new UsageError(`${source[issue.path as keyof ProxySettings] ?? issue.path} ${issue.message}`);
  return settings;
}
