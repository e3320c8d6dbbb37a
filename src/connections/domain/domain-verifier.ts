import { Inject, Injectable } from '@nestjs/common';
import { Resolver } from 'node:dns/promises';
import { LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { AddressResolver, guardedLookup } from '../../common/net/public-address';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DNS_RECORD_PREFIX, VERIFICATION_TXT_PREFIX, WELL_KNOWN_PATH } from '../connection-limits';

const TIMEOUT_MS = 5000;
/** The file holds a code of a few dozen bytes; more is not read. */
const FILE_LIMIT_BYTES = 4096;

/** What one check found: proven, or why not (shown to the user, so it names nothing internal). */
export interface DomainCheck {
  proven: boolean;
  findings: string[];
}

/**
 * Proves that whoever asked controls a domain: the TXT record `_badge-stats.<domain>` holds
 * `badge-stats-verification=<code>`, or `https://<domain>/.well-known/badge-stats-verification.txt` holds the code.
 * The HTTPS request goes only to public addresses (common/net/public-address.ts: each address the name resolves to is
 * checked where the connection is made), follows no redirect and reads at most 4 KiB. Both the TXT record and the
 * addresses are asked of DOMAIN_VERIFY_DNS_SERVERS when set (tests run their own DNS server), else of the system.
 */
@Injectable()
export class DomainVerifier {
  private readonly resolver: Resolver;
  private readonly addresses: AddressResolver | undefined;
  private readonly ca: string[] | undefined;
  private readonly port: number;
  private readonly allowLoopback: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const { dnsServers, extraCaFile, httpsPort } = config.connections;
    this.resolver = new Resolver({ timeout: 2000, tries: 2 });
    if (dnsServers.length) {
      this.resolver.setServers(dnsServers);
      this.addresses = (hostname, _options, callback) => {
        this.resolveAll(hostname).then(
          (all) => callback(null, all),
          (error: Error) => callback(error, []),
        );
      };
    }
    // Extra authorities are added to the usual ones, never in their place.
    this.ca = extraCaFile ? [...rootCertificates, readFileSync(extraCaFile, 'utf8')] : undefined;
    this.port = httpsPort;
    this.allowLoopback = config.webhooks.allowLoopback;
  }

  async check(domain: string, code: string): Promise<DomainCheck> {
    const findings: string[] = [];
    const record = await this.checkTxt(domain, code);
    if (record === true) return { proven: true, findings: [] };
    findings.push(record);
    const file = await this.checkFile(domain, code);
    if (file === true) return { proven: true, findings: [] };
    findings.push(file);
    return { proven: false, findings };
  }

  private async checkTxt(domain: string, code: string): Promise<true | string> {
    const name = `${DNS_RECORD_PREFIX}.${domain}`;
    try {
      const records = await this.resolver.resolveTxt(name);
      const expected = `${VERIFICATION_TXT_PREFIX}${code}`;
      if (records.some((chunks) => chunks.join('').trim() === expected)) return true;
      return `TXT ${name}: no record holds ${expected}`;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOTFOUND' || code === 'ENODATA'
        ? `TXT ${name}: no such record`
        : `TXT ${name}: the lookup failed (${code ?? 'error'})`;
    }
  }

  private checkFile(domain: string, code: string): Promise<true | string> {
    const where = `https://${domain}${WELL_KNOWN_PATH}`;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: true | string) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        req.destroy();
        resolve(outcome);
      };
      const req = request(
        {
          host: domain,
          port: this.port,
          path: WELL_KNOWN_PATH,
          method: 'GET',
          agent: false,
          servername: domain,
          lookup: guardedLookup(this.allowLoopback, this.addresses),
          ...(this.ca ? { ca: this.ca } : {}),
          headers: { 'User-Agent': 'badge-stats-domain-check/1', Accept: 'text/plain' },
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            const note = res.statusCode && res.statusCode >= 300 && res.statusCode < 400 ? ' (redirects are not followed)' : '';
            return finish(`${where}: HTTP ${res.statusCode}${note}`);
          }
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > FILE_LIMIT_BYTES) return finish(`${where}: larger than ${FILE_LIMIT_BYTES} bytes`);
            chunks.push(chunk);
          });
          res.on('end', () => {
            const lines = Buffer.concat(chunks)
              .toString('utf8')
              .split(/\r?\n/)
              .map((line) => line.trim());
            finish(lines.includes(code) || lines.includes(`${VERIFICATION_TXT_PREFIX}${code}`) ? true : `${where}: the code is not in it`);
          });
          res.on('error', () => finish(`${where}: the answer broke off`));
        },
      );
      const deadline = setTimeout(() => finish(`${where}: no answer within ${TIMEOUT_MS / 1000} s`), TIMEOUT_MS);
      req.on('error', (error: NodeJS.ErrnoException) =>
        finish(
          error.code === 'EWEBHOOKADDRESS'
            ? `${where}: refused, the name resolves to a private address`
            : `${where}: ${error.code ?? 'failed'}`,
        ),
      );
      req.end();
    });
  }

  /** The name's IPv4 and IPv6 addresses from the configured DNS servers. */
  private async resolveAll(hostname: string): Promise<LookupAddress[]> {
    const [v4, v6] = await Promise.allSettled([this.resolver.resolve4(hostname), this.resolver.resolve6(hostname)]);
    const all: LookupAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (!all.length) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
    return all;
  }
}
