import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../common/errors.js';

/** The answers of one upload route: each builds the error that route throws. */
export interface UploadRefusals {
  /** No multipart body, or no file in the expected field. */
  readonly missing: () => DomainError;
  /** The file is above the upload limit (413). */
  readonly tooLarge: () => DomainError;
  /** A multipart body that is cut off or malformed (400). */
  readonly malformed: () => DomainError;
}

const codeOf = (error: unknown) =>
  error instanceof Error && 'code' in error ? String((error as { code: unknown }).code) : '';

/**
 * The bytes of the one file of a multipart request, from `field`. A file above the limit is
 * refused every time: busboy marks a file `truncated` without yielding another chunk when the
 * limit falls on a chunk's end, and @fastify/multipart's toBuffer then answers the first 5 MB as
 * if they were the whole file — so `truncated` is checked after reading, whatever toBuffer says.
 * Every other failure of the parser is the client's: malformed, never a 500.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  field: string,
  refuse: UploadRefusals,
): Promise<Buffer> {
  if (!request.isMultipart()) throw refuse.missing();
  let file: MultipartFile | undefined;
  let bytes: Buffer;
  try {
    file = await request.file();
    if (file?.fieldname !== field) throw refuse.missing();
    bytes = await file.toBuffer();
  } catch (error) {
    if (error instanceof DomainError) throw error;
    const code = codeOf(error);
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') throw refuse.tooLarge();
    if (file?.file.truncated) throw refuse.tooLarge();
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw refuse.missing();
    throw refuse.malformed();
  }
  if (file.file.truncated) throw refuse.tooLarge();
  return bytes;
}
