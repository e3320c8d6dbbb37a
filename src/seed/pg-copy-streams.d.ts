/** The part of pg-copy-streams the seed uses (the package ships no type declarations). */
declare module 'pg-copy-streams' {
  import { Readable, Writable } from 'node:stream';
  import { Submittable } from 'pg';

  /** `COPY … FROM STDIN`: write rows in the COPY format; 'finish' once PostgreSQL has accepted them all. */
  export function from(text: string): Writable & Submittable;
  /** `COPY … TO STDOUT`. */
  export function to(text: string): Readable & Submittable;
}
