/**
 * The app's frame: the header with who is signed in, and the page the address names. The jobs list
 * and the sign-in page come with the first script; the other pages (a job, an allocation, the clients)
 * are loaded when first opened.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Link, match, navigate, parseJobAddress, useLocation, type Location } from './router.js';
import { currentToken, onTokenChange } from './token.js';
import { JobsPage } from './pages/jobs.js';
import { TokensPage } from './pages/tokens.js';

/** A page's module, loaded once on first use; undefined until it is there. */
function useLazy<P>(load: () => Promise<ComponentType<P>>, cache: { page?: ComponentType<P> }): ComponentType<P> | undefined {
  const [page, setPage] = useState(() => cache.page);
  useEffect(() => {
    if (!cache.page) load().then((p) => setPage(() => (cache.page = p)));
  }, []);
  return page;
}

const jobPage: { page?: ComponentType<{ id: string; namespace: string; tab: string | null }> } = {};
const allocationPage: { page?: ComponentType<{ id: string }> } = {};
const runJobPage: { page?: ComponentType<Record<string, never>> } = {};
const clientsPage: { page?: ComponentType<{ loc: Location }> } = {};
const topologyPage: { page?: ComponentType<Record<string, never>> } = {};
const clientPage: { page?: ComponentType<{ id: string }> } = {};
const secretsPage: { page?: ComponentType<{ loc: Location }> } = {};

function LazyJob(props: { id: string; namespace: string; tab: string | null }) {
  const Page = useLazy(async () => (await import('./pages/job.js')).JobPage, jobPage);
  return Page ? <Page {...props} /> : <p class="muted">Loading…</p>;
}

function LazyRunJob() {
  const Page = useLazy(async () => (await import('./pages/run-job.js')).RunJobPage, runJobPage);
  return Page ? <Page /> : <p class="muted">Loading…</p>;
}

function LazyAllocation(props: { id: string }) {
  const Page = useLazy(async () => (await import('./pages/allocation.js')).AllocationPage, allocationPage);
  return Page ? <Page {...props} /> : <p class="muted">Loading…</p>;
}

function LazyClients(props: { loc: Location }) {
  const Page = useLazy(async () => (await import('./pages/clients.js')).ClientsPage, clientsPage);
  return Page ? <Page {...props} /> : <p class="muted">Loading…</p>;
}

function LazyClient(props: { id: string }) {
  const Page = useLazy(async () => (await import('./pages/client-node.js')).ClientPage, clientPage);
  return Page ? <Page {...props} /> : <p class="muted">Loading…</p>;
}

function LazyTopology() {
  const Page = useLazy(async () => (await import('./pages/topology.js')).TopologyPage, topologyPage);
  return Page ? <Page /> : <p class="muted">Loading…</p>;
}

function LazySecrets(props: { loc: Location }) {
  const Page = useLazy(async () => (await import('./pages/secrets/index.js')).SecretsPage, secretsPage);
  return Page ? <Page {...props} /> : <p class="muted">Loading…</p>;
}

function Page() {
  const loc = useLocation();
  if (loc.path === '/' || loc.path === '/jobs' || loc.path === '/jobs/') return <JobsPage loc={loc} />;
  if (loc.path === '/jobs/run') return <LazyRunJob />;
  const job = match('/jobs/:job', loc.path);
  if (job) {
    const { id, namespace } = parseJobAddress(job.job);
    return <LazyJob key={`${namespace}/${id}`} id={id} namespace={namespace} tab={loc.query.get('tab')} />;
  }
  const alloc = match('/allocations/:id', loc.path);
  if (alloc) return <LazyAllocation key={alloc.id} id={alloc.id} />;
  if (loc.path === '/clients' || loc.path === '/clients/') return <LazyClients loc={loc} />;
  const client = match('/clients/:id', loc.path);
  if (client) return <LazyClient key={client.id} id={client.id} />;
  if (loc.path === '/topology') return <LazyTopology />;
  if (loc.path === '/settings/tokens') return <TokensPage />;
  if (loc.path === '/secrets' || loc.path.startsWith('/secrets/')) return <LazySecrets loc={loc} />;
  return (
    <section>
      <h1>Not found</h1>
      <p>
        This UI has no page at this address. <Link to="/jobs">Go to the jobs</Link>
      </p>
    </section>
  );
}

export function App(props: { notice?: string }) {
  const [signedIn, setSignedIn] = useState(() => currentToken() !== undefined);
  useEffect(() => onTokenChange(() => setSignedIn(currentToken() !== undefined)), []);
  useEffect(() => {
    if (location.pathname === '/ui' || location.pathname === '/ui/') navigate(`/jobs${location.search}`, { replace: true });
  }, []);
  return (
    <>
      <header class="top">
        <Link to="/jobs" class="brand">
          svc
        </Link>
        <nav>
          <Link to="/jobs">Jobs</Link>
          <Link to="/clients">Clients</Link>
          <Link to="/secrets">Secrets</Link>
          <Link to="/topology">Topology</Link>
        </nav>
        <Link to="/settings/tokens" class="who">
          {signedIn ? 'Token' : 'Sign in'}
        </Link>
      </header>
      <main>
        {props.notice && (
          <p class="error" role="alert">
            {props.notice}
          </p>
        )}
        <Page />
      </main>
    </>
  );
}
