import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { McpConfigError, parseMcpConfig, readMcpConfig } from './mcp-config.js';

const dir = mkdtempSync(join(tmpdir(), 'weir-mcp-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseMcpConfig', () => {
  it('reads the common mcpServers shape, stdio and HTTP, leaving disabled ones out', () => {
    const servers = parseMcpConfig({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { DEBUG: '1' }, tiers: { read_text_file: 'read-only' } },
        api: { type: 'http', url: 'https://mcp.example/mcp', headers: { authorization: 'Bearer x' } },
        off: { command: 'nothing', disabled: true },
      },
    });
    expect(servers).toEqual([
      { name: 'fs', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { DEBUG: '1' }, tiers: { read_text_file: 'read-only' } },
      { name: 'api', url: 'https://mcp.example/mcp', headers: { authorization: 'Bearer x' } },
    ]);
  });

  it('names the file and the entry on every mistake', () => {
    const bad = (config: unknown) => {
      try {
        parseMcpConfig(config, 'mcp.json');
      } catch (error) {
        expect(error).toBeInstanceOf(McpConfigError);
        return (error as Error).message;
      }
      throw new Error('expected a McpConfigError');
    };
    expect(bad({ servers: {} })).toMatch(/^mcp\.json: expected/);
    expect(bad({ mcpServers: { 'a__b': { command: 'x' } } })).toMatch(/mcpServers\.a__b: the name/);
    expect(bad({ mcpServers: { fs: { command: 'x', url: 'http://y' } } })).toMatch(/either "command"/);
    expect(bad({ mcpServers: { fs: { command: 'x', args: 'a b' } } })).toMatch(/mcpServers\.fs\.args: must be an array/);
    expect(bad({ mcpServers: { fs: { command: 'x', tiers: { '*': 'safe' } } } })).toMatch(/tiers\["\*"\]/);
    expect(bad({ mcpServers: { fs: { command: 'x', autoApprove: ['y'] } } })).toMatch(/unknown key\(s\) "autoApprove"/);
  });
});

describe('parseMcpConfig: oauth', () => {
  it('reads "oauth": true or its options, a relative tokenFile from the folder, and refuses anything else', () => {
    const parsed = parseMcpConfig({ mcpServers: { a: { url: 'https://a.example/mcp', oauth: true }, b: { url: 'https://b.example/mcp', oauth: { scope: 'read', redirectPort: 8765, tokenFile: 'b.json', clientId: 'weir-b', clientSecret: 's3', clientMetadataUrl: 'https://weir.example/client.json' } } } }, 'cfg', '/base');
    expect(parsed).toEqual([
      { name: 'a', url: 'https://a.example/mcp', oauth: true },
      { name: 'b', url: 'https://b.example/mcp', oauth: { scope: 'read', redirectPort: 8765, tokenFile: '/base/b.json', clientId: 'weir-b', clientSecret: 's3', clientMetadataUrl: 'https://weir.example/client.json' } },
    ]);
    expect(() => parseMcpConfig({ mcpServers: { a: { url: 'https://a.example/mcp', oauth: { password: 'x' } } } }, 'cfg')).toThrow(/mcpServers\.a\.oauth: unknown key\(s\) "password"/);
    expect(() => parseMcpConfig({ mcpServers: { a: { url: 'https://a.example/mcp', oauth: 'yes' } } }, 'cfg')).toThrow(McpConfigError);
  });

  it('reads the client credentials grant (a secret, or a key file relative to the folder) and refuses a bad combination when read, naming the option', () => {
    const keyFile = join(dir, 'client.pem');
    writeFileSync(keyFile, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const parsed = parseMcpConfig(
      {
        mcpServers: {
          s: { url: 'https://s.example/mcp', oauth: { grant: 'client_credentials', clientId: 'svc', clientSecret: 's3', scope: 'read' } },
          k: { url: 'https://k.example/mcp', oauth: { grant: 'client_credentials', clientId: 'svc', privateKeyFile: 'client.pem', algorithm: 'ES256' } },
        },
      },
      'cfg',
      dir,
    );
    expect(parsed).toEqual([
      { name: 's', url: 'https://s.example/mcp', oauth: { grant: 'client_credentials', clientId: 'svc', clientSecret: 's3', scope: 'read' } },
      { name: 'k', url: 'https://k.example/mcp', oauth: { grant: 'client_credentials', clientId: 'svc', privateKeyFile: keyFile, algorithm: 'ES256' } },
    ]);
    const bad = (oauth: unknown) => {
      try {
        parseMcpConfig({ mcpServers: { a: { url: 'https://a.example/mcp', oauth } } }, 'cfg', dir);
      } catch (error) {
        expect(error).toMatchObject({ code: 'MCP_CONFIG_INVALID' });
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(bad({ grant: 'client_credentials', clientId: 'svc' })).toMatch(/^cfg: mcpServers\.a: oauth\.grant "client_credentials" needs exactly one of oauth\.clientSecret/);
    expect(bad({ grant: 'client_credentials', clientId: 'svc', clientSecret: 's3', redirectPort: 9000 })).toMatch(/oauth\.redirectPort is for a person's login/);
    expect(bad({ grant: 'client_credentials', clientId: 'svc', privateKeyFile: 'client.pem', algorithm: 'RS256' })).toMatch(/oauth\.algorithm RS256 does not fit oauth\.privateKeyFile/);
    expect(bad({ grant: 'client_credentials', clientId: 'svc', privateKeyFile: 'nowhere.pem' })).toMatch(/oauth\.privateKeyFile ".*nowhere\.pem" cannot be read/);
    expect(bad({ grant: 'client_credentials', clientId: 'svc', privateKey: 42 })).toMatch(/mcpServers\.a\.oauth\.privateKey must be PEM text or a JWK object/);
    expect(bad({ clientId: 'svc', privateKeyFile: 'client.pem' })).toMatch(/oauth\.privateKeyFile is for oauth\.grant "client_credentials"/);
  });
});

describe('readMcpConfig', () => {
  it('reads a file; a relative cwd is taken from the file\'s folder', async () => {
    const path = join(dir, 'mcp.json');
    writeFileSync(path, JSON.stringify({ mcpServers: { local: { command: 'node', args: ['server.js'], cwd: 'servers' } } }));
    expect(await readMcpConfig(path)).toEqual([{ name: 'local', command: 'node', args: ['server.js'], cwd: join(dir, 'servers') }]);
  });

  it('a file that is not JSON is a McpConfigError naming it', async () => {
    const path = join(dir, 'broken.json');
    writeFileSync(path, '{ "mcpServers": ');
    await expect(readMcpConfig(path)).rejects.toThrow(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON`));
    await expect(readMcpConfig(join(dir, 'missing.json'))).rejects.toBeInstanceOf(McpConfigError);
  });
});
