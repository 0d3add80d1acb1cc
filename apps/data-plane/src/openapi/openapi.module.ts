import { Module } from '@nestjs/common';
import { OpenApiController } from './openapi.controller';

/** GET /docs/openapi.json: the OpenAPI 3.1 description of the data plane. */
@Module({ controllers: [OpenApiController] })
export class OpenApiModule {}
