import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '../../shared/ui/visually-hidden.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from '../../shared/api/query-client.js';
import { initI18n } from '../../shared/i18n/index.js';
import { cssVariablesResolver, theme } from '../../shared/theme.js';
import { messages } from './messages.js';
import { router } from './routes.js';
import { SESSION_KEY } from '../../features/dashboard/auth/hooks.js';

await initI18n(messages);
const queryClient = createQueryClient(SESSION_KEY);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
