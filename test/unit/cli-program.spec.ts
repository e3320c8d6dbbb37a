import { Command } from 'commander';
import { buildProgram, runCli } from '../../src/cli/program';
import { compactRanges, ProgressDisplay, RefreshTally, renderBar } from '../../src/cli/progress-display';

/** Every command path of the CLI: ['api-key'], ['api-key', 'create'], … */
function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands
    .filter((sub) => sub.name() !== 'help')
    .flatMap((sub) => [[...prefix, sub.name()], ...commandPaths(sub, [...prefix, sub.name()])]);
}

/** Runs the CLI in-process as `node cli.js …args` and captures what it writes and its exit code. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const outSpy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const errSpy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true));
  const previous = process.exitCode;
  process.exitCode = undefined;
  try {
    await runCli(['node', 'cli.js', ...args]);
    return { code: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    process.exitCode = previous;
    outSpy.mockRestore();
    errSpy.mockRestore();
  }
}

describe('the CLI’s commands', () => {
  const paths = commandPaths(buildProgram());

  it('should keep every command the CLI has had, and the quick start’s', () => {
    const names = paths.map((path) => path.join(' '));
    for (const name of [
      'api-key create',
      'api-key list',
      'api-key revoke',
      'session create',
      'session list',
      'session revoke',
      'role grant',
      'role revoke',
      'maintenance create',
      'maintenance list',
      'maintenance enable',
      'maintenance disable',
      'maintenance delete',
      'donation record',
      'derived rebuild',
      'accounts refresh',
    ])
      expect(names).toContain(name);
  });

  it('should answer --help on every command and subcommand with its usage, exit code 0', async () => {
    for (const path of [[], ...paths]) {
      const { code, stdout } = await cli(...path, '--help');
      expect({ path, code }).toEqual({ path, code: 0 });
      expect(stdout).toContain(`Usage: npm run cli -- ${path.join(' ')}`.trimEnd());
    }
    expect((await cli('accounts', 'refresh', '--help')).stdout).toMatch(/--count <n>[\s\S]*SIMULATOR_ACCOUNTS/);
  });

  it('should refuse bad arguments with one error line and exit code 2, before touching a store', async () => {
    const cases: [string[], string][] = [
      [
        ['accounts', 'refresh', '--count', 'abc'],
        "error: option '--count <n>' argument 'abc' is invalid. Expected a whole number from 1 to 10000.",
      ],
      [['accounts', 'refresh'], 'error: --count is required'],
      [['accounts', 'refresh', '--from', '2147483600', '--count', '100'], 'error: the range ends after the last account id (2147483647)'],
      [['api-key', 'create'], 'error: --account is required'],
      [['api-key', 'create', '--account', '-1'], "error: option '--account <accountId>' argument '-1' is invalid."],
      [
        ['role', 'grant', '--account', '1', '--role', 'king'],
        "error: option '--role <role>' argument 'king' is invalid. Allowed choices are",
      ],
      [['donation', 'record', '--cents', '0'], "error: option '--cents <cents>' argument '0' is invalid."],
      [['maintenance', 'create', '--title', 'T', '--message', 'M', '--starts', 'soon'], 'Expected an ISO date-time'],
      [['api-key', 'revoke'], "error: missing required argument 'keyId'"],
      [['nope'], "error: unknown command 'nope'"],
      [['api-key', 'create', '--acount', '1'], "error: unknown option '--acount'"],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await cli(...args);
      expect({ args, code, stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(stderr.split('\n')[0]).toContain(message);
      expect(stderr).toContain('(add --help for usage)');
    }
    // A group without its subcommand shows the group's help, as an error.
    const group = await cli('api-key');
    expect(group.code).toBe(2);
    expect(group.stderr).toContain('Usage: npm run cli -- api-key');
  });
});

describe('the refresh progress display', () => {
  const tally = (completed: number, failed = 0, running = 0, total = 200): RefreshTally => ({
    total,
    completed,
    failed,
    running,
    fraction: (completed + failed) / total,
  });

  it('should draw a bar that fits the terminal', () => {
    const line = renderBar('accounts 1..200', tally(90, 2, 4), 37_000, 100);
    expect(line).toMatch(/^accounts 1\.\.200 \[█+░+\] {2}46% {2}92\/200 done · {3}4 running · {3}2 failed · 0:37$/);
    expect(line.length).toBeLessThanOrEqual(100);
    expect(renderBar('accounts 1..200', tally(90), 0, 50)).not.toContain('[');
  });

  it('should redraw in place on a terminal and write plain lines, a tenth at a time, elsewhere', () => {
    let now = 0;
    const written: string[] = [];
    const terminal = new ProgressDisplay({ isTTY: true, columns: 100, write: (text: string) => written.push(text) }, 'accounts', () => now);
    for (let done = 0; done <= 200; done += 10, now += 200) terminal.update(tally(done));
    terminal.finish(tally(200));
    expect(written.every((text) => text.startsWith('\r') || text === '\n')).toBe(true);
    expect(written.at(-1)).toBe('\n');

    const lines: string[] = [];
    now = 0;
    const log = new ProgressDisplay({ isTTY: false, write: (text: string) => lines.push(text) }, 'accounts', () => now);
    for (let done = 0; done <= 200; done += 5, now += 100) log.update(tally(done));
    log.finish(tally(200));
    expect(lines.join('')).not.toContain('\r');
    // 0%, 10%, … 100% once each; finishing at 100% repeats nothing.
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('accounts: 100% 200/200 done ·   0 running ·   0 failed · 0:04\n');
  });

  it('should list missing ids as ranges', () => {
    expect(compactRanges([1, 2, 3, 7, 9, 10])).toBe('1..3, 7, 9..10');
    expect(compactRanges([])).toBe('');
  });
});
