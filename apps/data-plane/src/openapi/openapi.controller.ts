import { Controller, Get } from '@nestjs/common';
import { serviceInfo } from '../service-info';
import { OPENAPI_PATH, openApiDocument } from './openapi.document';

@Controller()
export class OpenApiController {
  /** Built once: the document only changes with the code. */
  private readonly document = openApiDocument(serviceInfo);

  @Get(OPENAPI_PATH)
  openapi(): Record<string, unknown> {
    return this.document;
  }
}
