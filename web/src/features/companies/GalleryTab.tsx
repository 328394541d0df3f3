import { useEffect, useRef, useState, type DragEvent } from 'react';
import { FormButtons } from '@/components/form/Form';
import { Icon } from '@/components/Icon';
import { notifySuccess } from '@/lib/notify';
import { useGetGalleryQuery, useSaveGalleryMutation } from './companyApi';
import {
  ACCEPTED_TYPES,
  addFiles,
  fromServer,
  galleryFormData,
  MAX_GALLERY_IMAGES,
  moveItem,
  type GalleryItem,
} from './gallery';

/** dataTransfer type of a reorder drag (tells it apart from files dragged in). */
const REORDER = 'application/x-navalha-gallery-index';

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/**
 * 'Galeria de fotos': at most 5 images; pick or drop files, reorder by dragging or with the
 * move buttons (keyboard and touch), delete, then 'Salvar' sends the whole gallery.
 */
export function GalleryTab({ id, canEdit }: { id: number; canEdit: boolean }) {
  const { data } = useGetGalleryQuery(id);
  const [save, saving] = useSaveGalleryMutation();
  const [items, setItems] = useState<GalleryItem[] | null>(null);
  const [refused, setRefused] = useState<string | null>(null);
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [dropping, setDropping] = useState(false);
  const [focusAfterMove, setFocusAfterMove] = useState<{ key: string; action: string } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const urls = useRef(new Set<string>());

  // The saved gallery replaces the edited one when it is (re)read, e.g. after 'Salvar'.
  useEffect(() => {
    if (data) setItems(fromServer(data));
  }, [data]);

  // Object URLs of picked files live until the tab closes.
  useEffect(() => {
    const created = urls.current;
    return () => created.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  // A moved image keeps the focus on the button that moved it (or its neighbour at an end).
  useEffect(() => {
    if (!focusAfterMove) return;
    const item = listRef.current?.querySelector<HTMLElement>(`[data-key="${focusAfterMove.key}"]`);
    const button =
      item?.querySelector<HTMLButtonElement>(`button[data-action="${focusAfterMove.action}"]:not(:disabled)`) ??
      item?.querySelector<HTMLButtonElement>('button[data-action^="move"]:not(:disabled)');
    button?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove]);

  const list = items ?? [];
  const room = MAX_GALLERY_IMAGES - list.length;

  const add = (files: File[]) => {
    if (!files.length) return;
    const result = addFiles(list, files, (file) => {
      const url = URL.createObjectURL(file);
      urls.current.add(url);
      return url;
    });
    setItems(result.items);
    setRefused(result.refused);
  };

  const move = (from: number, to: number, action?: string) => {
    setItems(moveItem(list, from, to));
    if (action) setFocusAfterMove({ key: list[from].key, action });
  };

  const remove = (index: number) => {
    setItems(list.filter((_, i) => i !== index));
    setRefused(null);
  };

  const submit = async () => {
    await save({ id, body: galleryFormData(list) })
      .unwrap()
      .then(() => notifySuccess('Imagens atualizadas com sucesso.'))
      .catch(() => undefined); // The base query showed the server's message.
  };

  // Reordering by drag (HTML5 drag and drop).
  const itemDragProps = (index: number) =>
    canEdit
      ? {
          draggable: true,
          onDragStart: (event: DragEvent) => {
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData(REORDER, String(index));
            setDragged(index);
          },
          onDragOver: (event: DragEvent) => {
            event.preventDefault();
            event.dataTransfer.dropEffect = hasFiles(event) ? 'copy' : 'move';
            setOver(index);
          },
          onDragLeave: () => setOver((current) => (current === index ? null : current)),
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            setOver(null);
            if (event.dataTransfer.files.length) return add([...event.dataTransfer.files]);
            const raw = event.dataTransfer.getData(REORDER);
            const from = raw === '' ? dragged : Number(raw);
            if (from !== null && !Number.isNaN(from) && from !== index) move(from, index);
          },
          onDragEnd: () => {
            setDragged(null);
            setOver(null);
          },
        }
      : {};

  const dropZoneProps = {
    onDragOver: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDropping(true);
    },
    onDragLeave: () => setDropping(false),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      setDropping(false);
      add([...event.dataTransfer.files]);
    },
  };

  return (
    <section className="company-gallery" aria-label="Galeria de fotos">
      <p className="muted company-gallery-count">
        {list.length} de {MAX_GALLERY_IMAGES} imagens
        {canEdit && list.length > 1 && ' · arraste as imagens ou use as setas para mudar a ordem'}
      </p>
      {items && list.length === 0 && <p className="empty">Nenhuma imagem na galeria.</p>}
      {list.length > 0 && (
        <ol className="gallery-list" aria-label="Imagens da galeria" ref={listRef}>
          {list.map((item, index) => (
            <li
              key={item.key}
              data-key={item.key}
              className={`gallery-item${dragged === index ? ' gallery-item-dragging' : ''}${over === index && dragged !== index ? ' gallery-item-over' : ''}`}
              {...itemDragProps(index)}
            >
              <img src={item.url} alt={`Imagem ${index + 1}`} draggable={false} />
              <span className="gallery-position" aria-hidden="true">
                {index + 1}
              </span>
              {item.id === null && <span className="badge badge-success gallery-new">Nova</span>}
              {canEdit && (
                <div className="gallery-item-actions">
                  <button
                    type="button"
                    className="icon-button"
                    data-action="move-left"
                    aria-label={`Mover imagem ${index + 1} para a esquerda`}
                    title="Mover para a esquerda"
                    disabled={index === 0}
                    onClick={() => move(index, index - 1, 'move-left')}
                  >
                    <Icon name="chevronLeft" />
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    data-action="delete"
                    aria-label={`Excluir imagem ${index + 1}`}
                    title="Excluir"
                    onClick={() => remove(index)}
                  >
                    <Icon name="delete" />
                  </button>
                  <button
                    type="button"
                    className="icon-button"
                    data-action="move-right"
                    aria-label={`Mover imagem ${index + 1} para a direita`}
                    title="Mover para a direita"
                    disabled={index === list.length - 1}
                    onClick={() => move(index, index + 1, 'move-right')}
                  >
                    <Icon name="chevronRight" />
                  </button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {canEdit && room > 0 && (
        <div className={`gallery-dropzone${dropping ? ' gallery-dropzone-active' : ''}`} data-testid="gallery-dropzone" {...dropZoneProps}>
          <Icon name="upload" size={32} />
          <p>Arraste as imagens até aqui ou</p>
          <label className="button button-secondary gallery-pick">
            Escolher imagens
            <input
              type="file"
              multiple
              accept={ACCEPTED_TYPES.join(',')}
              className="visually-hidden"
              onChange={(event) => {
                add([...(event.target.files ?? [])]);
                event.target.value = '';
              }}
            />
          </label>
          <p className="muted">
            JPEG, PNG ou WebP, até 5 MB cada. {room === 1 ? 'Cabe mais 1 imagem.' : `Cabem mais ${room} imagens.`}
          </p>
        </div>
      )}
      {refused && (
        <p className="field-error" role="alert">
          {refused}
        </p>
      )}
      <FormButtons>
        <button
          type="button"
          className="button button-secondary"
          disabled={!canEdit}
          onClick={() => {
            setItems(data ? fromServer(data) : []);
            setRefused(null);
          }}
        >
          Cancelar
        </button>
        <button type="button" className="button button-primary" disabled={!canEdit || !items || saving.isLoading} onClick={() => void submit()}>
          Salvar
        </button>
      </FormButtons>
    </section>
  );
}
