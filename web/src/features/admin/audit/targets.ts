/** Where an audit entry's target lives in the console (null: no page of its own). */
export function targetPath(kind: string, id: string): string | null {
  const e = encodeURIComponent(id);
  switch (kind) {
    case 'reseller': return `/resellers/${e}`;
    case 'order': return `/orders/${e}`;
    case 'catalog': return `/catalog/catalogs/${e}`;
    case 'category': return `/catalog/categories?edit=${e}`;
    case 'product': return '/catalog/products';
    case 'supplier':
    case 'route':
    case 'sandbox':
    case 'supply': return '/supply';
    case 'operator': return '/operators';
    case 'approval_request': return '/four-eyes';
    default: return null;
  }
}
