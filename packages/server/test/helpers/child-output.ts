import type { ChildProcess } from 'node:child_process';

/**
 * Follows a test child process's output: each stdout line that is a JSON object goes to
 * `onMessage` (other lines are ignored); stderr is kept for failure messages.
 */
export function followChild<T>(
  child: ChildProcess,
  onMessage: (message: T) => void,
): { stderr(): string } {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const lines = out.split('\n');
    out = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('{')) onMessage(JSON.parse(line) as T);
  });
  return { stderr: () => stderr };
}
