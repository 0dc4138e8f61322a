import { type PipeTransform } from '@nestjs/common';
import { ApiError } from './api-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A resource id from the path; one that cannot exist answers 404 like any unknown id. */
export class ResourceIdPipe implements PipeTransform<string, string> {
  constructor(private readonly resource: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw ApiError.notFound(this.resource, value);
    return value.toLowerCase();
  }
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
