import { Modal } from '@/components/Modal';
import { ClientSearch } from './ClientSearch';
import type { ClientItem } from '../model/types';

interface ClientSearchModalProps {
  open: boolean;
  selected: number | null;
  onSelect: (client: ClientItem) => void;
  onClose: () => void;
}

/** 'Buscar cliente': search by name, CPF or phone, 5 per page. */
export function ClientSearchModal({ open, selected, onSelect, onClose }: ClientSearchModalProps) {
  return (
    <Modal open={open} title="Buscar cliente" onClose={onClose}>
      <ClientSearch
        selected={selected}
        onSelect={(client) => {
          onSelect(client);
          onClose();
        }}
      />
    </Modal>
  );
}
