import { useQuery } from '@tanstack/react-query';
import { contractCall } from '../../shared/api/client.js';

interface Order {
  order_id: string;
  order_code: string;
  ref_id: string;
  product_name: string;
  price: number;
  status: string;
  created_at: string;
}

/** GET /dashboard/v1/overview (web contract). */
export interface Overview {
  balance: number;
  currency: string;
  orders_today: { processing: number; success: number; failed: number; refunded: number };
  spend_daily: { date: string; amount: number; orders: number }[];
  onboarding: { approved: boolean; api_key: boolean; ip_whitelisted: boolean; callback_url: boolean };
  recent_orders: Order[];
}

export const useOverview = () => useQuery({ queryKey: ['overview'], queryFn: () => contractCall<Overview>('GET', '/dashboard/v1/overview') });
