import { describe, expect, it } from 'vitest';
import {
  addFiles,
  fromServer,
  galleryFormData,
  galleryParts,
  MAX_IMAGE_BYTES,
  moveItem,
  MSG_BAD_TYPE,
  MSG_TOO_BIG,
  MSG_TOO_MANY,
} from './gallery';

const png = (name: string, size = 10) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const urlOf = (file: File) => `blob:${file.name}`;

const saved = fromServer([
  { IdGalleryCompany: 12, Sequence: 2, Url: '/api/media/gallery/b.png' },
  { IdGalleryCompany: 11, Sequence: 1, Url: '/api/media/gallery/a.png' },
]);

describe('gallery order and multipart body', () => {
  it('reads the saved images by sequence', () => {
    expect(saved.map((item) => item.id)).toEqual([11, 12]);
  });

  it('moves an image, clamped to the list', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 5, 0)).toEqual(['a', 'b', 'c']);
  });

  it('adds only JPEG, PNG or WebP files of at most 5 MB, up to 5 images', () => {
    const gif = new File(['GIF89a'], 'x.gif', { type: 'image/gif' });
    // The refusal names the file, as the server's does (issue 45 point 7).
    expect(addFiles(saved, [gif], urlOf)).toMatchObject({ refused: `x.gif: ${MSG_BAD_TYPE}`, items: saved });
    const big = png('big.png', MAX_IMAGE_BYTES + 1);
    expect(addFiles(saved, [big], urlOf).refused).toBe(`big.png: ${MSG_TOO_BIG}`);
    const many = addFiles(saved, ['1', '2', '3', '4'].map((n) => png(`${n}.png`)), urlOf);
    expect(many.refused).toBe(MSG_TOO_MANY);
    expect(many.items.map((item) => item.file?.name ?? item.id)).toEqual([11, 12, '1.png', '2.png', '3.png']);
    expect(many.items[2]).toMatchObject({ id: null, url: 'blob:1.png' });
    const ok = addFiles([], [png('a.png'), new File(['x'], 'b.jpg', { type: 'image/jpeg' })], urlOf);
    expect(ok.refused).toBeNull();
    expect(ok.items).toHaveLength(2);
  });

  it('gives one id per image in order (empty for new files) and the new files in their order', () => {
    const added = addFiles(saved, [png('n1.png'), png('n2.png')], urlOf).items;
    // Final order: n2, 12, n1, 11.
    const order = [added[3], added[1], added[2], added[0]];
    const { ids, files } = galleryParts(order);
    expect(ids).toEqual(['', '12', '', '11']);
    expect(files.map((f) => f.name)).toEqual(['n2.png', 'n1.png']);

    const body = galleryFormData(order);
    expect(body.getAll('idGalleryCompanies')).toEqual(['', '12', '', '11']);
    expect((body.getAll('file') as File[]).map((f) => f.name)).toEqual(['n2.png', 'n1.png']);
    expect([...body.keys()].filter((k) => k !== 'idGalleryCompanies' && k !== 'file')).toEqual([]);
  });

  it('an empty gallery sends no part (every image removed)', () => {
    expect([...galleryFormData([]).keys()]).toEqual([]);
  });
});
