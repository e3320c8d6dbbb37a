import { decodeStrictBase64 } from '../../src/common/http/base64';
import { examineJsonBody } from '../../src/common/http/json-body-examiner';
import { RequestShapes } from '../../src/common/http/request-shape';

describe('strict base64 decoding (the body thread decodes upload data with it)', () => {
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4, 5, 250]);
  const text = bytes.toString('base64');

  it('should decode strict base64, with or without a data URL prefix', () => {
    expect(decodeStrictBase64(text)).toEqual({ bytes, claimedBytes: bytes.length });
    expect(decodeStrictBase64(`data:image/png;base64,${text}`)).toEqual({ bytes, claimedBytes: bytes.length });
  });

  it('should refuse what Buffer.from would quietly accept, keeping the size the text claims', () => {
    for (const bad of [
      `${text.slice(0, 4)}*${text.slice(5)}`,
      text.replace(/[+/]/g, '-'),
      `${text.slice(0, 4)}=${text.slice(5)}`,
      text.slice(1),
      '',
    ]) {
      expect(decodeStrictBase64(bad).bytes).toBeNull();
    }
    expect(decodeStrictBase64('A'.repeat(400)).claimedBytes).toBe(300);
    expect(decodeStrictBase64('A'.repeat(400), 299)).toEqual({ bytes: null, claimedBytes: 300 });
  });

  it('should hand base64 fields back as bytes beside the body, leaving them empty in it', () => {
    const shapes = new RequestShapes({
      Body: { type: 'object', properties: { images: { type: 'array', maxItems: 5, items: { $ref: '#/components/schemas/Item' } } } },
      Item: { type: 'object', properties: { data: { type: 'string', maxLength: 1000 }, type: { type: 'string', maxLength: 20 } } },
    });
    const raw = Buffer.from(
      JSON.stringify({
        images: [
          { type: 'a', data: text },
          { type: 'b', data: 'not base64!' },
        ],
      }),
    );
    const examined = examineJsonBody(raw, 'Body', shapes, [['images', '*', 'data']]);
    if (examined.kind !== 'body') throw new Error(`examined as ${examined.kind}`);
    expect(examined.body).toEqual({
      images: [
        { type: 'a', data: '' },
        { type: 'b', data: '' },
      ],
    });
    expect(examined.decoded.map((field) => ({ ...field, bytes: field.bytes && Buffer.from(field.bytes) }))).toEqual([
      { path: 'images.0.data', bytes, claimedBytes: bytes.length },
      { path: 'images.1.data', bytes: null, claimedBytes: 8 },
    ]);
  });
});
