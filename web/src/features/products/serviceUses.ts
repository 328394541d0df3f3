// 'Uso em serviços' (issue 43): how much of a product each catalogue service uses every time
// it is done; closing its comanda takes that out of the unit's stock.

import * as yup from 'yup';
import type { CatalogueService } from '@/components/staff/types';
import type { ProductUse } from './types';

/** The server's limit and messages (PUT service/{idService}/products/{idProduct}). */
export const USE_QUANTITY_MAX = 100_000;
export const SERVICE_USE_MSG = {
  service: 'Selecione o serviço.',
  quantity: 'Informe a quantidade usada.',
  quantityRange: 'A quantidade usada deve ser de 0 a 100.000.',
  saved: 'Uso em serviço salvo.',
};

/** The add row: the service (0: none chosen) and how much it uses, in the product's unit. */
export interface ServiceUseValues {
  idService: number;
  quantity: number | '';
}

export const EMPTY_SERVICE_USE: ServiceUseValues = { idService: 0, quantity: '' };

/** Adding a use takes a service and a whole quantity above 0 ('Remover' sends the 0). */
export const serviceUseSchema = yup.object({
  idService: yup.number().typeError(SERVICE_USE_MSG.service).required(SERVICE_USE_MSG.service).notOneOf([0], SERVICE_USE_MSG.service),
  quantity: yup
    .mixed<number | ''>()
    .test('quantity', SERVICE_USE_MSG.quantity, (value) => typeof value === 'number' && value > 0)
    .test('range', SERVICE_USE_MSG.quantityRange, (value) => typeof value !== 'number' || (Number.isInteger(value) && value <= USE_QUANTITY_MAX)),
}) as unknown as yup.ObjectSchema<ServiceUseValues>;

const quantityFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/** A use's quantity in the product's unit: '10 ml', '1.250 g', '2 un'. */
export const quantityWithUnit = (quantity: number, unit: string) => `${quantityFormat.format(quantity)} ${unit}`;

/** A row of the uses' list: the service's name beside its quantity. */
export interface ServiceUseRow {
  idService: number;
  description: string;
  quantity: number;
}

/**
 * The uses as rows, by the services' names. A service no longer in the active catalogue still
 * uses the product: it shows by its number, so it can be removed.
 */
export function serviceUseRows(usedBy: readonly ProductUse[], catalogue: readonly CatalogueService[]): ServiceUseRow[] {
  const names = new Map(catalogue.map((service) => [service.IdService, service.Description]));
  return usedBy
    .map((use) => ({
      idService: use.IdService,
      description: names.get(use.IdService) ?? `Serviço N.º ${use.IdService}`,
      quantity: use.Quantity,
    }))
    .sort((a, b) => a.description.localeCompare(b.description, 'pt-BR'));
}

/** The add row's choices: 'Selecione', then the catalogue services that do not use the product yet. */
export function serviceUseOptions(usedBy: readonly ProductUse[], catalogue: readonly CatalogueService[]) {
  const taken = new Set(usedBy.map((use) => use.IdService));
  return [
    { value: 0, label: 'Selecione' },
    ...catalogue
      .filter((service) => !taken.has(service.IdService))
      .map((service) => ({ value: service.IdService, label: service.Description })),
  ];
}
