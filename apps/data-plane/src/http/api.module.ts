import { Global, Module } from '@nestjs/common';
import { ApiServer } from './api-server';

/** The Fastify instance the `/v1/` routes register on (see `ApiServer`). */
@Global()
@Module({ providers: [ApiServer], exports: [ApiServer] })
export class ApiModule {}
