import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/global.css';
import { appUpdate } from './app/app-update.svelte';
import { runController } from './app/services';

mount(App, { target: document.getElementById('app')! });
appUpdate.start(() => runController.busy);
