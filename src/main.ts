import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/global.css';

mount(App, { target: document.getElementById('app')! });
