// Prisma CLI configuration. The JavaScript schema engine runs through the pg driver adapter, so
// `migrate deploy` needs no downloaded engine binary (Prisma 6.19's bundled wasm engine).
import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  experimental: { adapter: true },
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  engine: 'js',
  async adapter() {
    const connectionString = process.env['DATABASE_URL'];
    if (!connectionString) throw new Error('DATABASE_URL must be set for Prisma CLI commands');
    return new PrismaPg({ connectionString });
  },
});
