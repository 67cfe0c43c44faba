import React from 'react';
import type { ReactNode } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import { useTroveData } from '@site/src/components/troveData';
import styles from './index.module.css';

interface Feature {
  title: string;
  text: string;
  to: string;
}

const FEATURES: Feature[] = [
  {
    title: 'Your library, at home',
    text: 'Upload photos and videos; Trove keeps the originals untouched and makes previews and thumbnails. Favourites, hidden items, a trash you can restore from.',
    to: '/docs/user-guide/features/library',
  },
  {
    title: 'Albums you can share',
    text: 'Collect items into albums, pick a cover, and share an album with a link that works without an account.',
    to: '/docs/user-guide/features/albums',
  },
  {
    title: 'Explore',
    text: 'Browse by the places your photos were taken, the things in them and the people in them, and see what happened on this day in earlier years.',
    to: '/docs/user-guide/features/explore',
  },
  {
    title: 'Search',
    text: 'One search box over file names, descriptions, and the places, things and people in your items.',
    to: '/docs/user-guide/features/search',
  },
  {
    title: 'Self-hosted, two commands',
    text: 'One command, make up, runs everything on one machine with embedded stores; its Helm chart runs it on a home-lab Kubernetes cluster with MongoDB and MinIO.',
    to: '/docs/user-guide/installation',
  },
  {
    title: 'An open API',
    text: 'Everything the web app does goes through one documented HTTP API: script your library, build your own client.',
    to: '/api/',
  },
];

function Hero(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  return (
    <header className={clsx('hero hero--primary', styles.hero)}>
      <div className="container">
        <img src="/img/logo.svg" alt="" className={styles.logo} width={96} height={96} />
        <Heading as="h1" className="hero__title">
          {siteConfig.title}
        </Heading>
        <p className="hero__subtitle">{siteConfig.tagline}</p>
        <p className={styles.lead}>
          A self-hosted home for your photos and videos — on your own machine or your home-lab cluster, in the spirit of
          Immich, PhotoPrism and LibrePhotos.
        </p>
        <div className={styles.buttons}>
          <Link className="button button--secondary button--lg" to="/docs/user-guide/introduction">
            User guide
          </Link>
          <Link className={clsx('button button--outline button--lg', styles.outline)} to="/docs/dev-guide/introduction">
            Developer guide
          </Link>
          <Link className={clsx('button button--outline button--lg', styles.outline)} to="/api/">
            API reference
          </Link>
        </div>
      </div>
    </header>
  );
}

function Status(): ReactNode {
  const { operations, apiVersion } = useTroveData();
  const calls = Object.keys(operations).length;
  return (
    <section className={styles.status}>
      <div className="container">
        <p>
          <strong>Status:</strong> under active development. The API contract (version <code>{apiVersion}</code>) has{' '}
          {calls} calls, and the gateway serves every one of them. What comes next is on the{' '}
          <Link to="/docs/dev-guide/roadmap">roadmap</Link>.
        </p>
      </div>
    </section>
  );
}

export default function Home(): ReactNode {
  const { siteConfig } = useDocusaurusContext();
  return (
    <Layout
      title={`${siteConfig.title} — ${siteConfig.tagline}`}
      description="Trove is a self-hosted library for your photos and videos."
    >
      <Hero />
      <main>
        <Status />
        <section className={styles.features}>
          <div className="container">
            <Heading as="h2" className={styles.featuresTitle}>
              What Trove does
            </Heading>
            <div className="row">
              {FEATURES.map((f) => (
                <div key={f.title} className={clsx('col col--4', styles.feature)}>
                  <Heading as="h3">
                    <Link to={f.to}>{f.title}</Link>
                  </Heading>
                  <p>{f.text}</p>
                </div>
              ))}
            </div>
          </div>
        </section>
      </main>
    </Layout>
  );
}
