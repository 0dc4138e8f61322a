import { Injectable } from '@nestjs/common';
import {
  isUniqueViolation,
  PrismaService,
  ProfileRepository,
  type SchedulerProfile,
  type TenantTx,
} from '@schedlab/db';
import { ConfigValidationError, inTreeRegistry, loadSchedulerConfiguration } from '@schedlab/scheduler';
import { ApiError } from '../common/api-error';
import { TenantData } from '../common/tenant-data';
import { parseProfileRef, type ProfileView, toProfileView } from './profile.model';

const UPLOAD_ATTEMPTS = 3;

const MAX_INT32 = 2_147_483_647;

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Plugin weights kube-scheduler refuses: negative (0 means "the default, 1"), fractional, or past
 * int32. Checked here, ahead of the engine, so every such weight answers 400 naming its field.
 */
export function pluginWeightProblems(config: unknown): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const profiles = recordOf(config)?.profiles;
  if (!Array.isArray(profiles)) return problems;
  profiles.forEach((profile, p) => {
    const plugins = recordOf(recordOf(profile)?.plugins);
    for (const [point, set] of Object.entries(plugins ?? {})) {
      const enabled = recordOf(set)?.enabled;
      if (!Array.isArray(enabled)) continue;
      enabled.forEach((plugin, i) => {
        const weight = recordOf(plugin)?.weight;
        if (weight === undefined || weight === null) return;
        const field = `profiles[${p}].plugins.${point}.enabled[${i}].weight`;
        if (typeof weight !== 'number' || !Number.isInteger(weight)) {
          problems.push({ field, message: `Invalid value: ${JSON.stringify(weight)}: must be an integer` });
        } else if (weight < 0) {
          problems.push({
            field,
            message: `Invalid value: ${weight}: must not be negative (0 means the default, 1)`,
          });
        } else if (weight > MAX_INT32) {
          problems.push({ field, message: `Invalid value: ${weight}: must be at most ${MAX_INT32}` });
        }
      });
    }
  });
  return problems;
}

/** Rejects a configuration the engine would reject, with the engine's own field messages. */
export function validateSchedulerConfiguration(config: unknown): void {
  const weights = pluginWeightProblems(config);
  if (weights.length > 0) {
    throw ApiError.badRequest(
      'invalid_profile',
      weights.map((w) => `${w.field}: ${w.message}`).join('; '),
      weights,
    );
  }
  try {
    loadSchedulerConfiguration(config, { registry: inTreeRegistry() });
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      throw ApiError.badRequest('invalid_profile', error.message, error.errors);
    }
    throw ApiError.badRequest('invalid_profile', (error as Error).message);
  }
}

/** Of several rows with one name, the tenant's own wins over shared and built-in ones. */
function preferOwn(tenantId: string, rows: SchedulerProfile[]): SchedulerProfile[] {
  const ownerOf = new Map<string, string | null>();
  for (const row of rows) {
    if (!ownerOf.has(row.name) || row.tenantId === tenantId) ownerOf.set(row.name, row.tenantId);
  }
  return rows.filter((row) => ownerOf.get(row.name) === row.tenantId);
}

@Injectable()
export class ProfilesService {
  constructor(
    private readonly data: TenantData,
    private readonly prisma: PrismaService,
    private readonly profiles: ProfileRepository,
  ) {}

  /**
   * Resolves "name", "name@latest" or "name@N" to one visible version, or 404, inside the
   * caller's tenant transaction (runs and sweeps pin their profile versions this way).
   */
  async resolve(tx: TenantTx, tenantId: string, refText: string): Promise<SchedulerProfile> {
    const ref = parseProfileRef(refText);
    if (!ref) {
      throw ApiError.badRequest(
        'invalid_profile_ref',
        `profile "${refText}" must be "name", "name@latest" or "name@<version>"`,
        { field: 'profile' },
      );
    }
    const rows = preferOwn(tenantId, await this.profiles.findVisible(tx, tenantId, ref.name, ref.version));
    if (!rows[0]) throw ApiError.notFound('Scheduler profile', refText);
    return rows[0];
  }

  /** Stores the configuration as the next version of `name` (1 for a new name). */
  async upload(
    tenantId: string,
    name: string,
    description: string | undefined,
    config: unknown,
  ): Promise<ProfileView> {
    validateSchedulerConfiguration(config);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.data.run(tenantId, async (tx) => {
          const builtIn = await this.profiles.findBuiltIn(tx, name);
          if (builtIn)
            throw ApiError.conflict(
              'reserved_profile_name',
              `"${name}" is a built-in profile; choose another name`,
              { field: 'name' },
            );
          const latest = await this.profiles.findLatestOwn(tx, tenantId, name);
          const row = await this.profiles.create(tx, {
            tenantId,
            name,
            version: (latest?.version ?? 0) + 1,
            config,
            description,
          });
          return toProfileView(row);
        });
      } catch (error) {
        const raced = isUniqueViolation(error);
        if (!raced || attempt >= UPLOAD_ATTEMPTS) throw error;
      }
    }
  }

  /** The latest version of every profile name the tenant can use. */
  async list(tenantId: string): Promise<ProfileView[]> {
    const rows = await this.data.run(tenantId, (tx) => this.profiles.listVisible(tx, tenantId));
    const seen = new Set<string>();
    return preferOwn(tenantId, rows)
      .filter((r) => !seen.has(r.name) && seen.add(r.name))
      .map(toProfileView);
  }

  async versions(tenantId: string, name: string): Promise<ProfileView[]> {
    const rows = await this.data.run(tenantId, (tx) => this.profiles.findVisible(tx, tenantId, name));
    const visible = preferOwn(tenantId, rows);
    if (visible.length === 0) throw ApiError.notFound('Scheduler profile', name);
    return visible.map(toProfileView);
  }

  async get(tenantId: string, ref: string): Promise<ProfileView> {
    return toProfileView(await this.data.run(tenantId, (tx) => this.resolve(tx, tenantId, ref)));
  }

  /** Operator path: share a tenant's profile version with every tenant (or stop sharing). */
  async setShared(id: string, shared: boolean): Promise<ProfileView> {
    const row = await this.profiles.findById(this.prisma, id);
    if (!row || row.tenantId === null) throw ApiError.notFound('Scheduler profile', id);
    return toProfileView(await this.profiles.setShared(this.prisma, id, shared));
  }
}
