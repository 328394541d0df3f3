import { yupResolver } from '@hookform/resolvers/yup';
import { Controller, useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { Form, FormButtons, FormSection } from '@/components/form/Form';
import { FormPageFrame, FormPagePending } from '@/components/form/FormPageFrame';
import { CheckboxField, SelectField } from '@/components/form/fields';
import { MoneyField } from '@/components/MoneyField';
import { NumberField } from '@/components/NumberField';
import { TextField } from '@/components/TextField';
import { useMemberCompanies } from '@/api/companiesApi';
import type { CompanyDto } from '@/api/wire';
import { useIdempotencyKey } from '@/lib/idempotency';
import { notifySuccess } from '@/lib/notify';
import { useAppSelector } from '@/state/hooks';
import { selectRoleType } from '@/state/sessionSlice';
import { PRODUCTS_PATH } from './ProductListPage';
import { useCreateProductMutation, useGetProductQuery, useUpdateProductMutation } from './productsApi';
import {
  mayEditProducts,
  PRODUCT_MINIMUM_MAX,
  PRODUCT_NAME_MAX,
  PRODUCT_TEXT_MAX,
  productPayload,
  productSchema,
  productValues,
  UNIT_OPTIONS,
  type ProductFormValues,
} from './schema';
import { ProductPhotoSection } from './ProductPhotoSection';
import { ServiceUsesSection } from './ServiceUsesSection';
import type { Product } from './types';
import './products.css';

const FRAME = { listPath: PRODUCTS_PATH, className: 'product-form-page' };

export const CREATED_MESSAGE = 'Produto cadastrado com sucesso!';
export const UPDATED_MESSAGE = 'Produto atualizado com sucesso!';

/** /dashboard/product/new and /dashboard/product/{idProduct}. */
export default function ProductFormPage() {
  const { idProduct = 'new' } = useParams();
  const id = /^\d+$/.test(idProduct) ? Number(idProduct) : null;
  const { data: product, isError } = useGetProductQuery(id ?? 0, { skip: id === null });
  // The user's units: the minimums are per unit.
  const units = useMemberCompanies();

  if ((id !== null && !product) || !units) {
    return <FormPagePending {...FRAME} title="Produto" isError={isError} />;
  }
  return <ProductForm key={id ?? 'new'} product={product ?? null} units={units} />;
}

function ProductForm({ product, units }: { product: Product | null; units: CompanyDto[] }) {
  const navigate = useNavigate();
  const canEdit = mayEditProducts(useAppSelector(selectRoleType));
  const withKey = useIdempotencyKey();
  const form = useForm<ProductFormValues>({
    resolver: yupResolver(productSchema),
    // A minimum's line per unit, in the units' order.
    defaultValues: productValues(
      product,
      units.map((unit) => unit.IdCompany),
    ),
  });
  const {
    register,
    control,
    formState: { errors, isSubmitting },
  } = form;
  const [createProduct] = useCreateProductMutation();
  const [updateProduct] = useUpdateProductMutation();

  const save = async (values: ProductFormValues) => {
    const payload = productPayload(values);
    if (product) {
      await updateProduct({ id: product.IdProduct, payload }).unwrap();
      notifySuccess(UPDATED_MESSAGE);
    } else {
      await withKey((idempotencyKey) => createProduct({ payload, idempotencyKey }).unwrap(), JSON.stringify(payload));
      notifySuccess(CREATED_MESSAGE);
    }
    navigate(PRODUCTS_PATH);
  };

  return (
    <FormPageFrame {...FRAME} title={product ? 'Produto' : 'Novo produto'}>
      <Form form={form} onSubmit={save} aria-label="Dados do produto">
        {/* Only ADMIN changes products; the others read them. */}
        <fieldset className="product-fields" disabled={!canEdit}>
          <FormSection title="Produto">
            <TextField
              label="Nome"
              className="field-wide"
              autoComplete="off"
              maxLength={PRODUCT_NAME_MAX}
              error={errors.name?.message}
              {...register('name')}
            />
            <TextField label="Marca" autoComplete="off" maxLength={PRODUCT_TEXT_MAX} error={errors.brand?.message} {...register('brand')} />
            <TextField
              label="Categoria"
              autoComplete="off"
              maxLength={PRODUCT_TEXT_MAX}
              error={errors.category?.message}
              {...register('category')}
            />
            <TextField
              label="Código de barras (EAN)"
              autoComplete="off"
              inputMode="numeric"
              maxLength={14}
              error={errors.barcode?.message}
              {...register('barcode')}
            />
            <SelectField label="Unidade de medida" options={UNIT_OPTIONS} error={errors.unit?.message} {...register('unit')} />
            <Controller
              control={control}
              name="price"
              render={({ field, fieldState }) => (
                <MoneyField label="Preço" value={field.value} onChange={field.onChange} error={fieldState.error?.message} disabled={!canEdit} />
              )}
            />
            <Controller
              control={control}
              name="cost"
              render={({ field, fieldState }) => (
                <MoneyField label="Custo" value={field.value} onChange={field.onChange} error={fieldState.error?.message} disabled={!canEdit} />
              )}
            />
            <CheckboxField label="Ativo" {...register('active')} />
          </FormSection>
          <FormSection title="Estoque mínimo por unidade">
            <p className="muted product-minimums-hint field-wide">
              Abaixo do mínimo, o produto aparece no estoque da unidade como abaixo do mínimo. Em branco ou 0: sem mínimo.
            </p>
            {units.map((unit, index) => (
              <Controller
                key={unit.IdCompany}
                control={control}
                name={`minimums.${index}.minimum`}
                render={({ field, fieldState }) => (
                  <NumberField
                    label={unit.Name}
                    value={field.value}
                    onChange={field.onChange}
                    minValue={0}
                    maxValue={PRODUCT_MINIMUM_MAX}
                    error={fieldState.error?.message}
                  />
                )}
              />
            ))}
            {errors.minimums?.message && (
              <p className="field-error field-wide" role="alert">
                {errors.minimums.message}
              </p>
            )}
          </FormSection>
        </fieldset>
        {canEdit && (
          <FormButtons>
            <button type="submit" className="button button-primary" disabled={isSubmitting}>
              Salvar
            </button>
          </FormButtons>
        )}
      </Form>
      {/* A saved product only: the photo is sent on its own, as soon as it is chosen; every role sees it. */}
      {product && <ProductPhotoSection product={product} canEdit={canEdit} />}
      {/* A saved product only; each use is saved on its own (its own form: forms do not nest). */}
      {product && canEdit && <ServiceUsesSection product={product} />}
    </FormPageFrame>
  );
}
