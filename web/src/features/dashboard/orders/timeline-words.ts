import { useTranslation } from 'react-i18next';
import type { paths } from '../../../shared/api/generated/dashboard.js';
import { useMoney } from '../../../shared/ui/useCurrency.js';

type Detail = paths['/orders/{id}']['get']['responses'][200]['content']['application/json']['data'];
export type TimelineItem = Detail['timeline'][number];

/**
 * A timeline event as a title and a sentence in the reader's language, from the event's
 * params (amounts as money); an event this build does not know keeps the API's words.
 */
export function useTimelineWords() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  return (e: TimelineItem): { title: string; text: string } => {
    const p = e.params;
    const key = `orders.events.${e.event}`;
    if (!i18n.exists(key)) return { title: e.event, text: e.detail };
    const title = t(key, { round: p.round, attempt: p.attempt });
    const amounts = { amount: p.amount === undefined ? '' : money(p.amount), balance: p.balance_after === undefined ? '' : money(p.balance_after) };
    switch (e.event) {
      case 'placed':
        return { title, text: t('orders.eventText.placed', { product: p.product_code, target: p.zone ? `${p.target} (${p.zone})` : p.target, ref: p.ref_id }) };
      case 'debited':
        return { title, text: t('orders.eventText.debited', amounts) };
      case 'refunded_to_wallet':
        return { title, text: [t('orders.eventText.refunded_to_wallet', amounts), p.note ? t('orders.eventText.refundNote', { note: p.note }) : ''].filter(Boolean).join(' ') };
      case 'succeeded':
        return { title, text: p.serial_number ? t('orders.eventText.succeeded', { serial: p.serial_number }) : t('orders.eventText.succeededNoSerial') };
      case 'failed': {
        const reason = [p.failure_code, p.failure_reason].filter(Boolean).join(': ');
        return { title, text: reason ? t('orders.eventText.failed', { reason }) : t('orders.eventText.failedNoReason') };
      }
      case 'refunded':
        return { title, text: t('orders.eventText.refunded') };
      case 'callback_round':
        return { title, text: t('orders.eventText.callback_round', { status: t(`orders.deliveryStatus.${p.status}`, { defaultValue: p.status }), attempts: p.attempts }) };
      case 'callback_attempt':
        return {
          title,
          text: p.http_status != null
            ? t('orders.eventText.callback_attempt_http', { status: p.http_status, ms: p.duration_ms })
            : t('orders.eventText.callback_attempt_error', { error: p.error ?? '—', ms: p.duration_ms }),
        };
      default:
        return { title, text: e.detail };
    }
  };
}
